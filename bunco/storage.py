"""The static files as a phone downloads them: the app's own scripts and stylesheet minified
(comments and spaces out, rjsmin and rcssmin) before WhiteNoise hashes and compresses them, so
a phone's first load stays small while the sources keep their comments. Vendored files are
already minified and left as they are."""

from django.core.files.base import ContentFile
from rcssmin import cssmin
from rjsmin import jsmin
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS = {".js": jsmin, ".css": cssmin}


class MinifiedStaticStorage(CompressedManifestStaticFilesStorage):
    def _save(self, name, content):
        minify = MINIFIERS.get(name[name.rfind("."):]) if name.startswith("bunco/") else None
        if minify is not None:
            content.seek(0)
            text = content.read()
            text = text.decode("utf-8") if isinstance(text, bytes) else text
            content = ContentFile(minify(text).encode("utf-8"))
        return super()._save(name, content)

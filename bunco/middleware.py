"""The project's own middleware."""

from django.middleware.gzip import GZipMiddleware


class GZipPages(GZipMiddleware):
    """Pages and fragments compressed for browsers that accept it, except a response marked
    ``uncompressed``: a tap's answer, the table the websocket brings the same phone
    uncompressed a moment later anyway. Compressing it was a tenth of a tap's own work."""

    def process_response(self, request, response):
        if getattr(response, "uncompressed", False):
            return response
        return super().process_response(request, response)

"""What the host's pages say when the laptop cannot save (``bunco.laptop.disk``)."""

import sys

from django import template
from django.utils.safestring import mark_safe

from bunco.laptop import disk

register = template.Library()


@register.simple_tag
def laptop_trouble() -> str:
    """The note of what is wrong with saving, and what to do (hidden while nothing is). A
    noted trouble of the data folder is looked at again first: it may be over."""
    if disk.data_trouble() is not None:
        disk.data_probe(sync=False)
    return mark_safe(disk.trouble_html())  # a rendered template: escaped there


@register.simple_tag
def disk_trouble_now(path: str = ""):
    """On the error page: the data folder's trouble, when the error being answered is the
    disk's (noted for the host's page and the health check), or one noted before; as the
    page at ``path`` says it (in full to the host only: ``disk.trouble_for``)."""
    failed = sys.exc_info()[1]
    if failed is not None and disk.is_disk_error(failed):
        disk.data_failed(failed)
    return disk.trouble_for(path)

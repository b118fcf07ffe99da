"""The API's documentation page: Swagger UI served from caseflow's own static files (no CDN),
its script in a file of its own (the Content Security Policy allows no inline script)."""

from __future__ import annotations

from drf_spectacular.views import SpectacularSwaggerSplitView

from caseflow.lib.i18n import gettext_lazy as _


class ApiDocs(SpectacularSwaggerSplitView):
    title = _("caseflow API documentation")
    # The package's page with its inline <style> left out (``style-src 'self'``).
    template_name = "api/docs.html"

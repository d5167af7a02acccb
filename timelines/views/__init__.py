"""Server-rendered pages of the social graph, one module per concern: ``home`` (home timeline and posting),
``statuses`` (deleting), ``profiles`` (profiles and follow lists), ``follows``, ``lists``, ``discovery`` (tags,
search), ``profile_settings``; ``params`` holds what they share (strict query integers, ``next`` URLs, 404s,
htmx helpers) and ``timeline_pages`` the rendering of a page of a timeline.

Views check input, call services and selectors, map domain errors to a message and a 4xx, and render plain
data. Every page works without JavaScript: each change is a POST with a CSRF token, answered with a redirect.
When htmx sends the request (``request.htmx``), the same view answers with just the fragment that changed, so
the page updates in place. Pages answer GET and HEAD and never write.
"""

"""The client API's endpoints, one module per part of Mastodon's API: ``oauth`` (apps, authorize, token,
revoke), ``instance``, ``accounts``, ``statuses``, ``timelines`` and ``notifications``."""

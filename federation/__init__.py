"""Federation over ActivityPub, Mastodon's flavour (issue 22): actors, HTTP Signatures, inboxes, delivery."""

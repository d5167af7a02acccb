"""Pictures (issue 21): uploads verified and re-encoded with Pillow, stored through Django's storage API, served
only to people who may see the post they belong to."""

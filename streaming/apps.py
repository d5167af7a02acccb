from django.apps import AppConfig


class StreamingConfig(AppConfig):
    name = "streaming"
    verbose_name = "Streaming API"

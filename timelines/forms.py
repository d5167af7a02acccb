from __future__ import annotations

from django import forms

from timelines import keys


class PostForm(forms.Form):
    message = forms.CharField(
        label="What's happening?",
        max_length=keys.MAX_MESSAGE_LENGTH * 4,  # the exact limit is the service's; this only bounds input size
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 3, "maxlength": keys.MAX_MESSAGE_LENGTH, "placeholder": "What's happening?"}
        ),
    )

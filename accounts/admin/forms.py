"""The one form every moderation action asks for: why (a reason, or a report's resolution note). It goes into
the audit log, and for a removed post to its author."""

from __future__ import annotations

from django import forms

from accounts import limits
from timelines import validation


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label="Reason",
        max_length=limits.MAX_MODERATION_REASON_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Required. Written into the audit log.",
    )

    def __init__(self, *args: object, label: str = "Reason", help_text: str | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["reason"].label = label
        if help_text is not None:
            self.fields["reason"].help_text = help_text

    def clean_reason(self) -> str:
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError("Give a reason.")
        return reason


class StatusSearchForm(forms.Form):
    """The Statuses list's query string: a search, a filter on the author's state, and the page's cursor."""

    q = forms.CharField(required=False, max_length=200)
    state = forms.ChoiceField(
        required=False, choices=[("", "All"), ("active", "Active"), ("limited", "Limited"), ("suspended", "Suspended")]
    )
    max_id = forms.CharField(required=False, max_length=32, strip=False)

    def clean_max_id(self) -> int | None:
        raw = self.cleaned_data["max_id"]
        if not raw:
            return None
        try:
            # The shared parser: IntegerField would take "٣", " 5" or a 20-digit number.
            return validation.parse_int(raw)
        except ValueError:
            raise forms.ValidationError("Enter a post id (a whole number).") from None

"""Sign-up, log-in, password change and report forms: they check what a person typed (every field bounded in
length before anything queries it); the rules themselves live in the services."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.text import Truncator

from accounts import exceptions as report_exceptions
from accounts import limits as report_limits
from accounts import logins, reports
from accounts.models import Report, User
from timelines import exceptions, limits, validation
from timelines.records import Status

# How much of a post's text labels its checkbox on the report form.
REPORT_CHOICE_LENGTH = 140


def _bound(field: forms.Field, max_length: int) -> None:
    """Give a field built without one a length limit, checked like ``CharField(max_length=...)``'s."""
    field.max_length = max_length  # type: ignore[attr-defined]
    field.validators.append(MaxLengthValidator(max_length))


class LoginForm(AuthenticationForm):
    """Django's log-in form, which tells a suspended person why they cannot log in.

    A suspended account is inactive, so the backend refuses it like a wrong password; with the right password
    the form says ``ACCOUNT_SUSPENDED`` instead (a wrong one still gets the usual error, so the message
    tells nothing to someone who does not hold the password)."""

    error_messages = {**AuthenticationForm.error_messages, "inactive": report_exceptions.ACCOUNT_SUSPENDED}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Django sets the username's max_length after the field was built, so it reaches only the widget; the
        # validators bound both fields before authentication queries anything (a megabyte of login was a 500 on
        # SQLite: "LIKE or GLOB pattern too complex").
        _bound(self.fields["username"], self.fields["username"].max_length or 150)
        _bound(self.fields["password"], report_limits.MAX_PASSWORD_LENGTH)

    def get_invalid_login_error(self) -> ValidationError:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username and password:
            account = logins.find_account(username)
            if account is not None and not account.is_active and account.check_password(password):
                return ValidationError(self.error_messages["inactive"], code="inactive")
        return super().get_invalid_login_error()


class SignUpForm(forms.Form):
    # One password field, not two: the page labels it exactly "Password", and a typo is fixed by changing the
    # password later; the validators still refuse weak ones.
    username = forms.CharField(
        label="Username",
        max_length=limits.MAX_LOGIN_LENGTH,
        help_text=exceptions.INVALID_LOGIN,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "autofocus": True}),
    )
    # Optional, as on Mastodon: left empty, the display name is the username (changed later in the profile).
    name = forms.CharField(
        label="Display name (optional)",
        required=False,
        max_length=limits.MAX_NAME_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    email = forms.EmailField(
        label="E-mail (optional)",
        required=False,
        max_length=report_limits.MAX_EMAIL_LENGTH,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        max_length=report_limits.MAX_PASSWORD_LENGTH,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )

    def clean_username(self) -> str:
        # Taken first: a login that logs in to an existing account (a fullwidth "bob" is bob to the log-in
        # form) is that account's, whatever else is wrong with it.
        if logins.find_account(self.cleaned_data["username"]) is not None:
            raise forms.ValidationError(exceptions.LOGIN_TAKEN)
        try:
            login = validation.clean_login(self.cleaned_data["username"])
        except exceptions.InvalidLogin as error:
            raise forms.ValidationError(error.message) from None
        if logins.find_account(login) is not None:
            raise forms.ValidationError(exceptions.LOGIN_TAKEN)
        return login

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if not name.strip():
            # Left empty: the username (cleaned just before, being declared first); a bad username has its own error.
            return self.cleaned_data.get("username", "")
        try:
            return validation.clean_name(name)
        except exceptions.InvalidName as error:
            raise forms.ValidationError(error.message) from None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        password1 = cleaned.get("password1")
        if password1:
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(password1, candidate)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class BoundedPasswordChangeForm(PasswordChangeForm):
    """Django's password change form, with its three fields bounded before the hasher and validators see them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("old_password", "new_password1", "new_password2"):
            _bound(self.fields[name], report_limits.MAX_PASSWORD_LENGTH)


class ReportForm(forms.Form):
    """The report form: a reason, an optional comment, and which of the person's posts to include. The posts
    offered are the caller's (``statuses``): a post id outside them is a form error."""

    reason = forms.ChoiceField(
        label="Reason",
        choices=Report.Reason.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": report_exceptions.REASON_REQUIRED,
            "invalid_choice": report_exceptions.REASON_REQUIRED,
        },
    )
    comment = forms.CharField(
        label="Comment",
        required=False,
        strip=False,
        # The exact limit is the service's (newlines count once there); this only bounds input size.
        max_length=report_limits.MAX_REPORT_COMMENT_LENGTH * 4,
        help_text=f"Optional. Anything the moderators should know, up to {report_limits.MAX_REPORT_COMMENT_LENGTH:,} "
        "characters.",
        widget=forms.Textarea(attrs={"rows": 4}),
        error_messages={"max_length": report_exceptions.COMMENT_TOO_LONG},
    )
    status_ids = forms.TypedMultipleChoiceField(
        label="Include posts",
        required=False,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": report_exceptions.POST_NOT_OFFERED},
    )

    forward = forms.BooleanField(required=False)

    def __init__(self, *args: Any, statuses: Sequence[Status] = (), domain: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if domain:
            # Mastodon's "Forward to the remote server": a copy, from this server and not from the reporter.
            self.fields["forward"].label = f"Forward to {domain}"
            self.fields[
                "forward"
            ].help_text = (
                f"The account is from another server. Send an anonymized copy of the report to {domain} as well."
            )
        else:
            del self.fields["forward"]
        # CharField puts its own max_length (the input bound) on the widget; the browser gets the real limit.
        self.fields["comment"].widget.attrs["maxlength"] = str(report_limits.MAX_REPORT_COMMENT_LENGTH)
        self.fields["status_ids"].choices = [
            (status.id, Truncator(status.message).chars(REPORT_CHOICE_LENGTH)) for status in statuses
        ]

    def clean_reason(self) -> str:
        try:
            return reports.clean_reason(self.cleaned_data["reason"])
        except report_exceptions.InvalidReason as error:
            raise forms.ValidationError(error.message) from None

    def clean_comment(self) -> str:
        try:
            return reports.clean_comment(self.cleaned_data["comment"])
        except report_exceptions.CommentTooLong as error:
            raise forms.ValidationError(error.message) from None

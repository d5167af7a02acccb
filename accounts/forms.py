"""Sign-up form: checks what a person typed; the rules themselves live in the services."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation

from accounts.models import User
from timelines import exceptions, limits, validation


class SignUpForm(forms.Form):
    # One password field, not two: the page labels it exactly "Password", and a typo is fixed by changing the
    # password later; the validators still refuse weak ones.
    username = forms.CharField(
        label="Username",
        max_length=limits.MAX_LOGIN_LENGTH,
        help_text=exceptions.INVALID_LOGIN,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none", "autofocus": True}),
    )
    name = forms.CharField(
        label="Display name", max_length=limits.MAX_NAME_LENGTH, widget=forms.TextInput(attrs={"autocomplete": "name"})
    )
    email = forms.EmailField(
        label="E-mail (optional)", required=False, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )

    def clean_username(self) -> str:
        try:
            login = validation.clean_login(self.cleaned_data["username"])
        except exceptions.InvalidLogin as error:
            raise forms.ValidationError(error.message) from None
        if User.objects.filter(username__iexact=login).exists():
            raise forms.ValidationError(exceptions.LOGIN_TAKEN)
        return login

    def clean_name(self) -> str:
        try:
            return validation.clean_name(self.cleaned_data["name"])
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

"""Sign up, log in, log out and change password. Thin: forms validate, services write."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.forms import SignUpForm
from timelines import exceptions


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("timelines:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.sign_up(
                login=form.cleaned_data["username"],
                name=form.cleaned_data["name"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data["email"],
            )
        except exceptions.LoginTaken as error:
            form.add_error("username", error.message)
        else:
            login(request, user, backend="accounts.backends.CaseInsensitiveModelBackend")
            messages.success(request, f"Welcome to socialsite, @{user.username}!")
            return redirect("timelines:home")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_invalid(self, form):  # type: ignore[no-untyped-def]
        response = super().form_invalid(form)
        response.status_code = 400
        return response


class LogoutView(auth_views.LogoutView):
    pass


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("timelines:home")

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        messages.success(self.request, "Your password was changed.")
        return super().form_valid(form)

    def form_invalid(self, form):  # type: ignore[no-untyped-def]
        response = super().form_invalid(form)
        response.status_code = 400
        return response

"""Sign up, log in, log out and change password. Thin: forms validate, services write.

Rate limits (``socialsite.ratelimits``): sign-up counts accounts made per IP; log-in counts failed attempts per
login and per IP, and once either is spent even the right password is refused until the window ends.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.decorators import method_decorator
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.forms import BoundedPasswordChangeForm, LoginForm, SignUpForm
from socialsite import ratelimits
from timelines import exceptions


def _sign_up_refused(request: HttpRequest, message: str) -> HttpResponse:
    form = SignUpForm(request.POST)
    form.is_valid()  # reads only: shows what was typed, with its errors
    form.add_error(None, message)
    return render(request, "accounts/signup.html", {"form": form})


def _log_in_refused(request: HttpRequest, message: str) -> HttpResponse:
    # Not validated: that would check the password, which a refused attempt must not get to do.
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    context = {"form": form, "next": request.POST.get("next", ""), "refusal": message}
    return render(request, "accounts/login.html", context)


@require_http_methods(["GET", "POST"])
@ratelimits.limit("signup", page=_sign_up_refused)
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


@method_decorator(ratelimits.limit("login", "login_ip", counts="failures", page=_log_in_refused), name="post")
class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form):  # type: ignore[no-untyped-def]
        response = super().form_invalid(form)
        response.status_code = 400
        return response


class LogoutView(auth_views.LogoutView):
    pass


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    form_class = BoundedPasswordChangeForm
    success_url = reverse_lazy("timelines:home")

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        messages.success(self.request, "Your password was changed.")
        return super().form_valid(form)

    def form_invalid(self, form):  # type: ignore[no-untyped-def]
        response = super().form_invalid(form)
        response.status_code = 400
        return response

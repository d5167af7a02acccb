"""The demo network's published password, and the accounts that still log in with it.

``manage.py seed_demo`` (run by ``./bin/run`` on an empty site) gives its accounts one password printed in the
README, so anyone can log in as any of them. That is right for trying the site and wrong on a public server:
``manage.py check --deploy`` fails (``accounts.E001``, in ``accounts.checks``) until they are deleted or their
passwords changed, and ``serve`` prints that error as a warning on every start.

The seed marks its accounts (``User.is_demo``), hashes the password once and gives every one of them that
hash, so finding those still using it costs one password check per distinct hash among them: one, plus one per
demo account whose password was changed.
"""

from __future__ import annotations

from django.contrib.auth.hashers import check_password
from django.db import DatabaseError

from accounts.models import User

DEMO_PASSWORD = "socialsite-demo"
FIRST_NAMES = [
    "Ada",
    "Alan",
    "Barbara",
    "Claude",
    "Dennis",
    "Donald",
    "Edsger",
    "Frances",
    "Grace",
    "Guido",
    "Hedy",
    "John",
    "Ken",
    "Leslie",
    "Linus",
    "Margaret",
    "Radia",
    "Salvatore",
    "Shafi",
    "Tim",
    "Vint",
    "Whitfield",
    "Yukihiro",
    "Josiah",
    "Katherine",
    "Niklaus",
    "Robin",
    "Sophie",
    "Tony",
    "Xavier",
]


def demo_login(index: int) -> str:
    """The login of the ``index``-th demo account: ``ada``, ``alan``, ... then ``ada30``, ``alan31``, ..."""
    return f"{FIRST_NAMES[index % len(FIRST_NAMES)].lower()}{'' if index < len(FIRST_NAMES) else index}"


def accounts_with_demo_password() -> list[str]:
    """Logins of demo accounts whose password is still ``DEMO_PASSWORD``, sorted; empty when the accounts table
    does not exist yet (before ``migrate``)."""
    try:
        rows = list(User.objects.filter(is_demo=True).values_list("username", "password"))
    except DatabaseError:
        return []
    demo_hashes = {
        password for password in {password for _, password in rows} if check_password(DEMO_PASSWORD, password)
    }
    return sorted(login for login, password in rows if password in demo_hashes)

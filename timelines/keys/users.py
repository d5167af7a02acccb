"""Keys of users (book figure 8.1)::

user:{42}        HASH  login, name, id, followers, following, posts, signup
                 > HGETALL user:{42}
                 login alice  name "Alice Liddell"  id 42  followers 3  following 7  posts 12
                 signup 1763800000.123456
                 and, once they own or are in a list, lists (lists:{42} size), listed (list:out:{42} size)
users:           HASH  lowercased login -> uid; claimed with HSETNX, so a login is taken once
                 > HGET users: alice
                 42
user:id:         STRING  last user id (INCR)
"""

from __future__ import annotations

USERS_BY_LOGIN = "users:"
USER_ID_COUNTER = "user:id:"


def user(uid: int) -> str:
    return f"user:{{{uid}}}"

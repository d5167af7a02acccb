"""The chaos run (issue 23): load the site through HTTP while ``serve``'s processes are killed with SIGKILL.

``python -m bench --only chaos`` runs it at full size with ``appendfsync always`` and ``everysec``
(``bench.scenarios.chaos``); ``socialsite/tests/test_chaos.py`` runs a short one. The modules: ``site`` (a
``manage.py serve`` of its own, its processes found and killed), ``people`` (the accounts and tokens, made in a
child process on that site's own database and Redis), ``load`` (posts, replies, likes, follows and page reads
through the client API and the pages, each answer recorded), ``streams`` (streaming clients that reconnect),
``checks`` (every acknowledged write looked for afterwards), ``deliveries`` (the job-delivered posts in the bulk
followers' homes), ``run`` (the schedule of kills, the recovery and the checks afterwards) and ``report`` (the
printed table).
"""

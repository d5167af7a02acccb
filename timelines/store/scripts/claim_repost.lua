-- Claims "user U reposted original O as repost R", once: the user's side of a repost (user's slot).
-- KEYS[1]  user:reposts:{U}   HASH  original id -> repost id
-- ARGV[1]  original id
-- ARGV[2]  repost id
-- returns  the repost id that stands for it now: ARGV[2] if claimed, an earlier one if U had reposted O
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  return ARGV[2]
end
return redis.call('HGET', KEYS[1], ARGV[1])

-- Undoes a repost claim, only if it is still the given repost (user's slot).
-- KEYS[1]  user:reposts:{U}   HASH
-- ARGV[1]  original id
-- ARGV[2]  repost id
-- returns  1 if released, 0 if U's repost of O is another one or none
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0

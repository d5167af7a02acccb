-- Removes a deleted status from its author's profile and home timelines and resets the posts counter from
-- the profile's size. All keys share the author's slot. Idempotent.
-- KEYS[1]  profile:{uid}   ZSET
-- KEYS[2]  home:{uid}      ZSET
-- KEYS[3]  user:{uid}      HASH
-- KEYS[4]  profile:held:{uid}  ZSET (keys.profile_held)
-- ARGV[1]  status id
-- returns  the author's post count
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
local posts = redis.call('ZCARD', KEYS[1])
if redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('HSET', KEYS[3], 'posts', posts)
end
return posts

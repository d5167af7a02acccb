-- Records a new status on its author: profile timeline, the author's own home timeline (trimmed), and the
-- posts counter, which is set from the profile's size so it can never drift. All keys share the author's slot.
-- KEYS[1]  profile:{uid}   ZSET
-- KEYS[2]  home:{uid}      ZSET
-- KEYS[3]  user:{uid}      HASH
-- KEYS[4]  profile:held:{uid}  ZSET (keys.profile_held), kept only once a copy made it
-- ARGV[1]  status id
-- ARGV[2]  posted time (score)
-- ARGV[3]  HOME_TIMELINE_SIZE
-- ARGV[4]  "home" to add it to the author's home too, "" for the profile only (a repost reaches its author's
--          home through the deduplicating push_repost.lua instead); not while the home is idle-dropped (the
--          user hash holds "idle", services.idle): its rebuild reads the profile
-- ARGV[5]  "1" when the status holds a field the policy judges statuses by (status_hash.HELD_FIELDS)
-- returns  the author's post count, or -1 if the user hash does not exist (nothing written)
if redis.call('EXISTS', KEYS[3]) == 0 then
  return -1
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[4]) == 1 then
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
end
if ARGV[4] == 'home' and redis.call('HEXISTS', KEYS[3], 'idle') == 0 then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[3]) - 1)
end
local posts = redis.call('ZCARD', KEYS[1])
redis.call('HSET', KEYS[3], 'posts', posts)
return posts

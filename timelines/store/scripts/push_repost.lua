-- The fan-out of a repost to one batch of timelines, with Mastodon's reblog deduplication: an original
-- already in a timeline, as itself or through another repost that is still there, is not added again.
-- Each target is a triple of keys of one slot (its owner's hash, its timeline, its repost tracking); like
-- push_to_timelines.lua the keys of a batch span slots on one server and are sent per slot on a cluster.
-- KEYS[3i-2]  user:{F} or list:{L}                      only written while it exists and is not idle-dropped
-- KEYS[3i-1]  home:{F} or list:statuses:{L}             ZSET  status id -> posted
-- KEYS[3i]    home:reposts:{F} or list:reposts:{L}      HASH  original id -> repost id standing for it
-- ARGV[1]  size to trim to
-- ARGV[2]  original id
-- ARGV[3]  repost id
-- ARGV[4]  the repost's posted time
-- returns  {1 or 0 per target}: whether the repost was added there
local size = tonumber(ARGV[1])
local original, repost, posted = ARGV[2], ARGV[3], ARGV[4]
local added = {}
for i = 1, #KEYS, 3 do
  local owner, timeline, tracking = KEYS[i], KEYS[i + 1], KEYS[i + 2]
  local result = 0
  if redis.call('EXISTS', owner) == 1 and redis.call('HEXISTS', owner, 'idle') == 0
    and not redis.call('ZSCORE', timeline, original) then
    local standing = redis.call('HGET', tracking, original)
    if not (standing and redis.call('ZSCORE', timeline, standing)) then
      redis.call('ZADD', timeline, posted, repost)
      redis.call('HSET', tracking, original, repost)
      redis.call('ZREMRANGEBYRANK', timeline, 0, -size - 1)
      -- Entries trimmed away leave their tracking behind; drop what no longer stands for anything, at most
      -- once per `size` new trackings, so the hash stays within twice the timeline.
      if redis.call('HLEN', tracking) > 2 * size then
        local entries = redis.call('HGETALL', tracking)
        for j = 1, #entries, 2 do
          if not redis.call('ZSCORE', timeline, entries[j + 1]) then
            redis.call('HDEL', tracking, entries[j])
          end
        end
      end
      result = 1
    end
  end
  added[#added + 1] = result
end
return added

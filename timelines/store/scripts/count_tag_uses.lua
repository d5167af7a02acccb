-- Counts uses of tags in one hour's trending bucket, or takes them back, and keeps the bucket's TTL: the
-- increment and the EXPIRE are one step, so no bucket is ever left without one. Taking back never creates a
-- bucket (an expired hour stays gone) and drops a tag whose count reaches 0.
-- KEYS[1]   trending:{tags}:<hour>   ZSET tag -> uses
-- ARGV[1]   +1 to count a use of each tag, -1 to take one back
-- ARGV[2]   TTL of the bucket in seconds (TRENDING_BUCKET_TTL_SECONDS), set when counting
-- ARGV[3..] tags
-- returns   the number of tags changed
local delta = tonumber(ARGV[1])
if delta < 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local changed = 0
for i = 3, #ARGV do
  if delta > 0 then
    redis.call('ZINCRBY', KEYS[1], delta, ARGV[i])
    changed = changed + 1
  elseif redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    if tonumber(redis.call('ZINCRBY', KEYS[1], delta, ARGV[i])) <= 0 then
      redis.call('ZREM', KEYS[1], ARGV[i])
    end
    changed = changed + 1
  end
end
if delta > 0 then
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return changed

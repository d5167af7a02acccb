-- Takes users out of a seen:{seenN} shard after the idle sweep dropped their home, unless they came back
-- meanwhile (note_seen wrote a newer time, which must stay so a later sweep can find them again).
-- KEYS[1]  seen:{seenN}   ZSET  uid -> last seen
-- ARGV[1]  cutoff: only entries scored below it are removed
-- ARGV[2..]  uids
-- returns  how many were removed
local cutoff = tonumber(ARGV[1])
local removed = 0
for i = 2, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) < cutoff then
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return removed

-- audit_timelines --fix for an edited status: its ``edits`` counter made equal to the length of its versions
-- list (trimmed to the cap), or the list dropped when the status itself is gone.
-- KEYS[1]  status:{id}            HASH
-- KEYS[2]  status:versions:{id}   LIST, same slot
-- ARGV[1]  how many earlier versions the list may hold (limits.MAX_STATUS_VERSIONS - 1)
-- returns  the counter now (0 for a status that is gone)
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2])
  return 0
end
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[1]) - 1)
local kept = redis.call('LLEN', KEYS[2])
if kept == 0 then
  redis.call('HDEL', KEYS[1], 'edits', 'edited_at')
else
  redis.call('HSET', KEYS[1], 'edits', kept)
end
return kept

-- A moderator's removal of one image of a status (issue 21): the status's images rewritten without it, every
-- earlier version rewritten without it too, and the version before the removal pushed like an edit's, so the
-- ``edits`` counter (the version every cache keys on) moves on and still equals the list's length. Only if nobody
-- edited the status since the caller read it (a compare-and-set on ``edits``, as edit_status.lua).
-- KEYS[1]  status:{id}            HASH
-- KEYS[2]  status:versions:{id}   LIST, same slot
-- ARGV[1]  the ``edits`` the caller read (0 when absent)
-- ARGV[2]  how many earlier versions the list may hold (limits.MAX_STATUS_VERSIONS - 1)
-- ARGV[3]  the media field's stored name
-- ARGV[4]  its new value ("" removes the field: the post has no image left)
-- ARGV[5]  the JSON of the version replaced (the status as it was, without the image), pushed on the list
-- ARGV[6..] the JSON of each version the list holds, newest first, without the image
-- returns  {"removed", <edits now>}, {"missing"} or {"conflict"}
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
local edits = tonumber(redis.call('HGET', KEYS[1], 'edits') or '0')
if edits ~= tonumber(ARGV[1]) or redis.call('LLEN', KEYS[2]) ~= #ARGV - 5 then
  return {'conflict'}
end
for i = 6, #ARGV do
  redis.call('LSET', KEYS[2], i - 6, ARGV[i])
end
if ARGV[4] == '' then
  redis.call('HDEL', KEYS[1], ARGV[3])
else
  redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
end
local cap = tonumber(ARGV[2])
if edits >= cap then
  -- A full list drops its oldest version to make room; the counter cannot grow past the cap, so it moves by
  -- pushing and trimming only: caches see the new images when the list was not full.
  redis.call('RPOP', KEYS[2])
  redis.call('LPUSH', KEYS[2], ARGV[5])
  return {'removed', edits}
end
redis.call('LPUSH', KEYS[2], ARGV[5])
redis.call('HSET', KEYS[1], 'edits', edits + 1)
return {'removed', edits + 1}

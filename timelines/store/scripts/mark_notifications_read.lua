-- Marks every notification in the feed as seen: the newest id becomes the read mark (user's slot).
-- KEYS[1]  notifications:{U}        ZSET
-- KEYS[2]  notifications:read:{U}   STRING
-- KEYS[3]  notifications:unread:{U} STRING  set to 0
-- returns  the new read mark (0 for an empty feed)
redis.call('SET', KEYS[3], 0)
local newest = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #newest == 0 then
  return 0
end
local mark = tonumber(newest[2])
local seen = tonumber(redis.call('GET', KEYS[2]) or '0')
if mark > seen then
  redis.call('SET', KEYS[2], newest[2])
  return mark
end
return seen

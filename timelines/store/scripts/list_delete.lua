-- Deletes a list's hash and timeline if, and only if, the caller owns it. The members set list:in:{id} is
-- kept: the clean-up that removes the list from each member's list:out:{uid} walks it, then deletes it.
-- Once list:{id} is gone no write recreates the timeline (add_to_timeline.lua checks it), and list ids are
-- never reused.
-- KEYS[1]  list:{id}            HASH
-- KEYS[2]  list:statuses:{id}   ZSET
-- ARGV[1]  uid of the caller
-- returns  "deleted", "missing" or "not_owner"
local owner = redis.call('HGET', KEYS[1], 'uid')
if not owner then
  return 'missing'
end
if owner ~= ARGV[1] then
  return 'not_owner'
end
redis.call('DEL', KEYS[1], KEYS[2])
return 'deleted'

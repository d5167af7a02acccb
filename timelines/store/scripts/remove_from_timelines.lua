-- The clean-up of one batch (the book's exercise "Cleaning out deleted IDs"): removes one status id from
-- many timelines in one call, the counterpart of push_to_timelines.lua, and like it the keys span hash slots
-- (on Redis Cluster it would be sent once per slot of the batch; each ZREM stands alone). Idempotent.
-- KEYS[1..n]  home:{uid} or list:statuses:{id} timelines of one batch
-- ARGV[1]     status id
-- returns     {1 or 0 per timeline}: whether it held the status (the delivery's event names those)
local removed = {}
for i = 1, #KEYS do
  removed[i] = redis.call('ZREM', KEYS[i], ARGV[1])
end
return removed

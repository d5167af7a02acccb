-- Undoes a login claim for one uid only: a login claimed by someone else in the meantime is left alone.
-- One key, so one step on any layout (it replaced a WATCH/MULTI loop).
-- KEYS[1]  users:   HASH  lowercased login -> uid
-- ARGV[1]  lowercased login
-- ARGV[2]  uid that claimed it
-- returns  1 if the claim was released, 0 if the login maps to someone else or to nobody
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0

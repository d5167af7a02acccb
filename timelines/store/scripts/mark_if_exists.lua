-- Sets one field of a hash only if the hash exists, so a late write cannot resurrect a deleted status.
-- KEYS[1]  status:{id}   HASH
-- ARGV[1]  field
-- ARGV[2]  value
-- returns  1 if written, 0 if the hash is gone
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1

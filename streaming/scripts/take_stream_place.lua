-- Takes one of a client's stream places (its identifier's or its address's), unless all are taken (one key,
-- one step).
-- KEYS[1]  streaming:open:{<digest>} or streaming:open:address:{<digest>}   ZSET  place id -> when it expires
-- ARGV[1]  now
-- ARGV[2]  when this place expires unless renewed
-- ARGV[3]  place id
-- ARGV[4]  most places per identifier (or address)
-- returns  1 if taken, 0 if all are taken
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) - tonumber(ARGV[1])) + 60)
return 1

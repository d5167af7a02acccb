-- One side of a follow: adds a member to followers:{x} or following:{x} and sets the matching counter in
-- user:{x} from the set's size, in one step, so racing follows can never make the counter drift
-- (the book's listing 8.4 checked before its transaction and could double-count). Both keys share x's slot.
-- KEYS[1]  followers:{x} or following:{x}   ZSET
-- KEYS[2]  user:{x}                         HASH
-- ARGV[1]  member uid
-- ARGV[2]  score (time of following); an existing member keeps its original time
-- ARGV[3]  counter field: "followers" or "following"
-- returns  1 if the member was added, 0 if it was already there, -1 if user:{x} does not exist
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local added = redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[3], redis.call('ZCARD', KEYS[1]))
return added

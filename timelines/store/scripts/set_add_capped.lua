-- Adds a member to a set that has a size limit and sets the matching counter in the owning hash from the
-- set's size, in one step (like graph_add.lua, plus the limit, so racing adds cannot pass it). Used for
-- lists:{uid} (the lists a user owns, counter "lists" in user:{uid}) and list:in:{id} (a list's members,
-- counter "members" in list:{id}). Both keys share one slot.
-- KEYS[1]  lists:{uid} or list:in:{id}   ZSET
-- KEYS[2]  user:{uid} or list:{id}       HASH
-- ARGV[1]  member
-- ARGV[2]  score (time added); an existing member keeps its original time
-- ARGV[3]  counter field: "lists" or "members"
-- ARGV[4]  largest size allowed
-- returns  1 if added, 0 if already there, -1 if the hash does not exist, -2 if the set is full
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 0
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  return -2
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[3], redis.call('ZCARD', KEYS[1]))
return 1

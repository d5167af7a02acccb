-- Links a reply into its conversation's shape (the root's slot), up to a size limit.
-- KEYS[1]  thread:{R}   HASH  reply id -> parent id
-- ARGV[1]  reply id
-- ARGV[2]  parent id
-- ARGV[3]  most replies a thread keeps the shape of
-- returns  1 if linked, 0 if the thread is full
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1

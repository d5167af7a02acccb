-- One shard of a search (book chapter 7's intersect-then-read, on one hash slot): the newest status ids of
-- the shard that contain every word, below a cursor. A single word is read straight from its set; several
-- are intersected into the shard's scratch key, read and deleted in this same script, so no other client
-- ever sees the scratch key. Every key shares the shard's hash tag {sN}.
-- KEYS[1]     search:tmp:{sN}        ZSET, scratch (written and deleted here)
-- KEYS[2..]   search:{sN}:<word>     ZSET status id -> status id, one per word of the query
-- ARGV[1]     max_id: only ids below it (exclusive); 0 for no bound
-- ARGV[2]     count
-- ARGV[3]     TTL of the scratch key in seconds, should the script stop between its write and its delete
-- returns     {id, id, ...} newest first, at most count
-- The bound is built from the argument's text: Lua would print a 16-digit number in exponent notation.
local upper = '+inf'
if tonumber(ARGV[1]) > 0 then
  upper = '(' .. ARGV[1]
end
local count = tonumber(ARGV[2])
if #KEYS == 2 then
  return redis.call('ZREVRANGEBYSCORE', KEYS[2], upper, '-inf', 'LIMIT', 0, count)
end
local args = {KEYS[1], #KEYS - 1}
for i = 2, #KEYS do
  args[#args + 1] = KEYS[i]
end
-- AGGREGATE MAX keeps each score equal to the status id (SUM would multiply it by the number of words).
args[#args + 1] = 'AGGREGATE'
args[#args + 1] = 'MAX'
-- An empty intersection stores nothing (Redis deletes the destination), so there is nothing to clean up.
local found = redis.call('ZINTERSTORE', unpack(args))
if found == 0 then
  return {}
end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], upper, '-inf', 'LIMIT', 0, count)
redis.call('DEL', KEYS[1])
return ids

-- One shard of a search (book chapter 7's intersection of one set per word, on one hash slot): the newest
-- status ids of the shard that contain every word, below a cursor. The intersection is walked, not stored:
-- the smallest word set is read newest first and each id is kept when every other set holds it, until
-- `count` are found. That is never more work than ZINTERSTORE (which reads the smallest set too), it can stop
-- early, and it writes nothing, so a search is a pure read. Every key shares the shard's hash tag {sN}.
-- KEYS[1..]   search:{sN}:<word>     ZSET status id -> status id, one per word of the query
-- ARGV[1]     max_id: only ids below it (exclusive); 0 for no bound
-- ARGV[2]     count
-- returns     {id, id, ...} newest first, at most count
-- The bound is built from the argument's text: Lua would print a 16-digit number in exponent notation.
local upper = '+inf'
if tonumber(ARGV[1]) > 0 then
  upper = '(' .. ARGV[1]
end
local count = tonumber(ARGV[2])
local smallest, size = 1, redis.call('ZCARD', KEYS[1])
for i = 2, #KEYS do
  local n = redis.call('ZCARD', KEYS[i])
  if n < size then
    smallest, size = i, n
  end
end
if size == 0 then
  return {}
end
if #KEYS == 1 then
  return redis.call('ZREVRANGEBYSCORE', KEYS[1], upper, '-inf', 'LIMIT', 0, count)
end
local found = {}
local offset, chunk = 0, 200
while #found < count do
  local batch = redis.call('ZREVRANGEBYSCORE', KEYS[smallest], upper, '-inf', 'LIMIT', offset, chunk)
  if #batch == 0 then
    break
  end
  for _, id in ipairs(batch) do
    local everywhere = true
    for i = 1, #KEYS do
      if i ~= smallest and not redis.call('ZSCORE', KEYS[i], id) then
        everywhere = false
        break
      end
    end
    if everywhere then
      found[#found + 1] = id
      if #found >= count then
        break
      end
    end
  end
  offset = offset + #batch
end
return found

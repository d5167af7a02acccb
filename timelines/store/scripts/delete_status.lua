-- Deletes a status hash if, and only if, the caller wrote it: the owner check and the delete are one step
-- (the book's listing 8.8 used a lock for this). Its earlier versions go with it.
-- KEYS[1]  status:{id}   HASH
-- KEYS[2]  status:versions:{id}   LIST (optional; same slot)
-- ARGV[1]  uid of the caller
-- returns  {"deleted", field, value, ...} with the status as it was, {"missing"} or {"not_owner"}
local fields = redis.call('HGETALL', KEYS[1])
if #fields == 0 then
  return {'missing'}
end
local owner = redis.call('HGET', KEYS[1], 'uid')
if owner ~= ARGV[1] then
  return {'not_owner'}
end
redis.call('DEL', unpack(KEYS))
table.insert(fields, 1, 'deleted')
return fields

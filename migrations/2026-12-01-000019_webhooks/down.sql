DROP FUNCTION turnpost_save_turn(uuid, bigint, text, text, bigint, jsonb, integer[], jsonb,
                                 timestamptz, timestamptz, text, text, text, text);
DROP FUNCTION turnpost_queue_webhooks(text);
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;

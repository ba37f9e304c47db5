-- The sync task reads each subscription's pending deliveries in order; this
-- partial index holds only those, so a long delivered history is not scanned.
CREATE INDEX webhook_deliveries_pending
    ON webhook_deliveries(subscription_id, created_at)
    WHERE status IN ('en_attente', 'echec');

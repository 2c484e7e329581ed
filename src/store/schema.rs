// The diesel schema of migrations/ (kept by hand, checked by the store tests).

diesel::table! {
    users (id) {
        id -> Uuid,
        email -> Text,
        display_name -> Text,
        password_hash -> Text,
        created_at -> Timestamptz,
        email_verified_at -> Nullable<Timestamptz>,
        mail_preference -> Text,
        is_bot -> Bool,
        vacation_from -> Nullable<Timestamptz>,
        vacation_until -> Nullable<Timestamptz>,
        vacation_year -> Nullable<Int4>,
        vacation_days -> Int4,
        token_version -> Int4,
        mail_pictures -> Bool,
    }
}

diesel::table! {
    games (id) {
        id -> Uuid,
        ruleset -> Text,
        options -> Jsonb,
        seat_count -> Int4,
        status -> Text,
        version -> Int8,
        state -> Nullable<Jsonb>,
        seed -> Bytea,
        seed_sha256 -> Text,
        to_act -> Array<Int4>,
        outcome -> Nullable<Jsonb>,
        created_by -> Uuid,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        waiting_since -> Nullable<Timestamptz>,
        clock -> Nullable<Jsonb>,
        robots -> Array<Int4>,
    }
}

diesel::table! {
    seats (game_id, seat) {
        game_id -> Uuid,
        seat -> Int4,
        user_id -> Uuid,
        joined_at -> Timestamptz,
        timeouts -> Int4,
        absent_since -> Nullable<Timestamptz>,
        resigned_at -> Nullable<Timestamptz>,
        bank_secs -> Nullable<Int8>,
        abort_vote -> Bool,
        standing_orders -> Array<Text>,
    }
}

diesel::table! {
    game_events (game_id, seq) {
        game_id -> Uuid,
        seq -> Int8,
        actor -> Text,
        seat -> Nullable<Int4>,
        kind -> Text,
        action -> Jsonb,
        visible_to -> Nullable<Array<Int4>>,
        redacted -> Nullable<Jsonb>,
        description -> Text,
        redacted_description -> Nullable<Text>,
        created_at -> Timestamptz,
        request_id -> Nullable<Uuid>,
        notation -> Nullable<Text>,
    }
}

diesel::table! {
    outbox (id) {
        id -> Int8,
        game_id -> Nullable<Uuid>,
        user_id -> Nullable<Uuid>,
        kind -> Text,
        payload -> Jsonb,
        status -> Text,
        attempts -> Int4,
        next_attempt_at -> Timestamptz,
        lease_until -> Nullable<Timestamptz>,
        last_error -> Nullable<Text>,
        created_at -> Timestamptz,
        sent_at -> Nullable<Timestamptz>,
        to_address -> Text,
        message_id -> Text,
    }
}

diesel::table! {
    pending_registrations (id) {
        id -> Uuid,
        email -> Text,
        display_name -> Text,
        password_hash -> Text,
        token_sha256 -> Bytea,
        next_path -> Text,
        created_at -> Timestamptz,
        expires_at -> Timestamptz,
    }
}

diesel::table! {
    invitations (id) {
        id -> Uuid,
        game_id -> Uuid,
        seat -> Nullable<Int4>,
        email -> Text,
        invited_by -> Uuid,
        created_at -> Timestamptz,
        accepted_by -> Nullable<Uuid>,
        accepted_at -> Nullable<Timestamptz>,
        expires_at -> Timestamptz,
        declined_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    idempotency_keys (user_id, key) {
        user_id -> Uuid,
        key -> Text,
        request_sha256 -> Text,
        response_status -> Nullable<Int4>,
        response_body -> Nullable<Jsonb>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    mail_shown (game_id, user_id) {
        game_id -> Uuid,
        user_id -> Uuid,
        version -> Int8,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    inbound_mail (message_id) {
        message_id -> Text,
        received_at -> Timestamptz,
        verdict -> Text,
        game_id -> Nullable<Uuid>,
        user_id -> Nullable<Uuid>,
    }
}

diesel::table! {
    deadlines (game_id, seat) {
        game_id -> Uuid,
        seat -> Int4,
        started_at -> Timestamptz,
        due_at -> Timestamptz,
        remind_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    messages (game_id, id) {
        game_id -> Uuid,
        id -> Int8,
        from_seat -> Int4,
        from_user -> Uuid,
        to_seat -> Nullable<Int4>,
        to_user -> Nullable<Uuid>,
        body -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> Uuid,
        user_id -> Uuid,
        name -> Text,
        scopes -> Array<Text>,
        secret_sha256 -> Bytea,
        created_at -> Timestamptz,
        last_used_at -> Nullable<Timestamptz>,
        revoked_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    webhooks (id) {
        id -> Uuid,
        user_id -> Uuid,
        token_id -> Nullable<Uuid>,
        url -> Text,
        events -> Array<Text>,
        secret_salt -> Bytea,
        created_at -> Timestamptz,
        last_delivery_at -> Nullable<Timestamptz>,
        last_failure_at -> Nullable<Timestamptz>,
        delivered -> Int8,
        failed_attempts -> Int8,
        given_up -> Int8,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> Int8,
        webhook_id -> Uuid,
        event_id -> Uuid,
        event -> Text,
        payload -> Jsonb,
        status -> Text,
        attempts -> Int4,
        next_attempt_at -> Timestamptz,
        lease_until -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        delivered_at -> Nullable<Timestamptz>,
        last_status -> Nullable<Int4>,
        last_error -> Nullable<Text>,
    }
}

diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(webhooks -> users (user_id));
diesel::joinable!(webhook_deliveries -> webhooks (webhook_id));
diesel::joinable!(seats -> games (game_id));
diesel::joinable!(seats -> users (user_id));
diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(messages -> games (game_id));
diesel::allow_tables_to_appear_in_same_query!(
    users,
    games,
    seats,
    game_events,
    outbox,
    pending_registrations,
    invitations,
    idempotency_keys,
    mail_shown,
    inbound_mail,
    deadlines,
    messages,
    api_tokens,
    webhooks,
    webhook_deliveries
);

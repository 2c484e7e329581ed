//! Personal API tokens: only their secrets' SHA-256 is stored.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::Conn;
use super::schema::api_tokens;

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = api_tokens)]
pub struct ApiToken {
    pub id: Uuid,
    pub user_id: Uuid,
    pub name: String,
    pub scopes: Vec<String>,
    pub secret_sha256: Vec<u8>,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

#[derive(Insertable)]
#[diesel(table_name = api_tokens)]
pub struct NewApiToken<'a> {
    pub id: Uuid,
    pub user_id: Uuid,
    pub name: &'a str,
    pub scopes: &'a [String],
    pub secret_sha256: &'a [u8],
}

pub async fn insert(conn: &mut Conn, new: NewApiToken<'_>) -> QueryResult<ApiToken> {
    diesel::insert_into(api_tokens::table)
        .values(new)
        .returning(ApiToken::as_returning())
        .get_result(conn)
        .await
}

pub async fn get(conn: &mut Conn, id: Uuid) -> QueryResult<Option<ApiToken>> {
    api_tokens::table
        .find(id)
        .select(ApiToken::as_select())
        .first(conn)
        .await
        .optional()
}

/// The account's tokens, newest first, `limit` at most, those made before `before` (a cursor:
/// the `created_at` and id of the last one of the previous page).
pub async fn of_user(
    conn: &mut Conn,
    user: Uuid,
    before: Option<(DateTime<Utc>, Uuid)>,
    limit: i64,
) -> QueryResult<Vec<ApiToken>> {
    let mut query = api_tokens::table
        .filter(api_tokens::user_id.eq(user))
        .select(ApiToken::as_select())
        .order((api_tokens::created_at.desc(), api_tokens::id.desc()))
        .limit(limit)
        .into_boxed();
    if let Some((at, id)) = before {
        query = query.filter(
            api_tokens::created_at
                .lt(at)
                .or(api_tokens::created_at.eq(at).and(api_tokens::id.lt(id))),
        );
    }
    query.load(conn).await
}

/// How many of the account's tokens are not revoked.
pub async fn live_count(conn: &mut Conn, user: Uuid) -> QueryResult<i64> {
    api_tokens::table
        .filter(api_tokens::user_id.eq(user))
        .filter(api_tokens::revoked_at.is_null())
        .count()
        .get_result(conn)
        .await
}

/// Revokes the account's token `id`; `false` when the account has no such token. Revoking a
/// revoked token changes nothing and is not an error.
pub async fn revoke(conn: &mut Conn, user: Uuid, id: Uuid) -> QueryResult<bool> {
    let found = diesel::update(
        api_tokens::table
            .filter(api_tokens::id.eq(id))
            .filter(api_tokens::user_id.eq(user))
            .filter(api_tokens::revoked_at.is_null()),
    )
    .set(api_tokens::revoked_at.eq(Some(Utc::now())))
    .execute(conn)
    .await?;
    if found > 0 {
        return Ok(true);
    }
    Ok(get(conn, id).await?.is_some_and(|t| t.user_id == user))
}

/// Records a use of the token, at most once a minute (so a busy bot writes nothing most of
/// the time).
pub async fn touch(conn: &mut Conn, id: Uuid) -> QueryResult<()> {
    diesel::sql_query(
        "UPDATE api_tokens SET last_used_at = now() WHERE id = $1 \
         AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')",
    )
    .bind::<diesel::sql_types::Uuid, _>(id)
    .execute(conn)
    .await
    .map(|_| ())
}

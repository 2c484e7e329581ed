//! Request bodies read as JSON Schema reads them.
//!
//! The OpenAPI document types counts as `integer`, and to JSON Schema `78.0` *is* an integer
//! (a number whose fractional part is zero; JSON Schema 2020-12, validation §6.1.1 and core
//! §4.2.2). serde refuses `78.0` for a `u32`, so a client that sends its numbers as doubles
//! (JavaScript's `JSON.stringify(78.0)` gives `78`, but many other serialisers keep the `.0`)
//! would be refused a body its schema accepts. [`Body`] reads the body with actix's JSON
//! extractor (size limit, content type, timeouts and syntax errors are answered as before, see
//! [`super::json_config`]), turns every finite number with no fractional part into an integer,
//! then reads the typed body, so the server accepts exactly what the document describes.
//! Game actions inside a body (`actions`) are read the same way: `{"play_card": 2.0}` is the
//! action `{"play_card": 2}`.

use actix_web::{FromRequest, HttpRequest, web};
use serde::de::DeserializeOwned;
use serde_json::{Number, Value};

use super::problem::ApiError;

/// A JSON request body whose integral numbers (`2.0`, `1e3`) are read as integers.
pub struct Body<T>(pub T);

impl<T> Body<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Body<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Body<T> {
    type Error = actix_web::Error;
    type Future = futures_util::future::LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let json = web::Json::<Value>::from_request(req, payload);
        Box::pin(async move {
            let value = json.await?.into_inner();
            read(value).map(Body).map_err(actix_web::Error::from)
        })
    }
}

/// The typed body from its JSON, integral numbers made integers first.
pub fn read<T: DeserializeOwned>(mut value: Value) -> Result<T, ApiError> {
    integral_numbers(&mut value);
    serde_json::from_value(value)
        .map_err(|e| ApiError::bad_request(format!("the JSON body is not valid here: {e}")))
}

/// Every finite float in `value` with no fractional part, within the 64-bit integers, becomes
/// that integer (`-0.0` becomes `0`). Other numbers stay as they are.
pub fn integral_numbers(value: &mut Value) {
    match value {
        Value::Number(n) => {
            if let Some(i) = n.as_f64().filter(|_| n.is_f64()).and_then(integral) {
                *n = i;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integral_numbers),
        Value::Object(fields) => fields.values_mut().for_each(integral_numbers),
        Value::Null | Value::Bool(_) | Value::String(_) => {}
    }
}

fn integral(f: f64) -> Option<Number> {
    // 2^63 and 2^64: the bounds of i64 and u64, exact as doubles.
    const I64_END: f64 = 9_223_372_036_854_775_808.0;
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if (-I64_END..0.0).contains(&f) {
        // In range and integral: the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        Some(Number::from(f as i64))
    } else if (0.0..U64_END).contains(&f) || f == 0.0 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(Number::from(f as u64))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn integral_floats_become_integers_everywhere_and_other_numbers_stay() {
        let mut body: Value = serde_json::from_str(
            r#"{"a": 78.0, "b": [1e3, -2.0, -0.0, 2.5], "c": {"d": 1.5e300, "e": 7}}"#,
        )
        .unwrap();
        integral_numbers(&mut body);
        assert_eq!(
            body,
            json!({"a": 78, "b": [1000, -2, 0, 2.5], "c": {"d": 1.5e300, "e": 7}})
        );
        assert!(body["a"].is_u64() && body["b"][1].is_i64());
    }

    #[test]
    fn a_typed_body_reads_integral_floats_as_integers_and_refuses_fractions() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Seat {
            seat: u32,
        }
        assert_eq!(
            read::<Seat>(json!({"seat": 3.0})).unwrap(),
            Seat { seat: 3 }
        );
        assert!(read::<Seat>(json!({"seat": 3.5})).is_err());
        assert!(
            read::<Seat>(json!({"seat": 1e10})).is_err(),
            "out of u32's range"
        );
    }
}

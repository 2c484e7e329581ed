//! The answer to a request no route takes: 405 with `Allow` when the path is one Turnpost
//! serves with other methods, 404 otherwise (RFC 9110 §15.5.6: "The origin server MUST
//! generate an Allow header field in a 405 response"). The API's paths and methods come from
//! its OpenAPI document, the pages' from [`crate::web::PAGE_METHODS`].

use std::sync::OnceLock;

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, ResponseError};

use super::problem::ApiError;

/// A path template's segments (`{…}` matches any one segment) and the methods it allows.
type Route = (Vec<String>, Vec<&'static str>);

fn table() -> &'static [Route] {
    static TABLE: OnceLock<Vec<Route>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut routes: Vec<Route> = super::openapi()
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let methods = [
                    ("GET", item.get.is_some()),
                    ("PUT", item.put.is_some()),
                    ("POST", item.post.is_some()),
                    ("DELETE", item.delete.is_some()),
                    ("PATCH", item.patch.is_some()),
                ];
                (
                    segments(path),
                    methods.iter().filter(|m| m.1).map(|m| m.0).collect(),
                )
            })
            .collect();
        routes.extend(
            crate::web::PAGE_METHODS
                .iter()
                .map(|(path, methods)| (segments(path), methods.to_vec())),
        );
        routes
    })
}

fn segments(path: &str) -> Vec<String> {
    path.trim_matches('/')
        .split('/')
        .map(str::to_owned)
        .collect()
}

/// The methods `path` allows, if it is a path Turnpost serves.
pub fn allowed(path: &str) -> Option<Vec<&'static str>> {
    let asked = segments(path);
    let mut methods: Vec<&'static str> = table()
        .iter()
        .filter(|(template, _)| {
            template.len() == asked.len()
                && template.iter().zip(&asked).all(|(t, a)| {
                    (t.starts_with('{') && t.ends_with('}') && !a.is_empty()) || t == a
                })
        })
        .flat_map(|(_, m)| m.iter().copied())
        .collect();
    // A literal path (`/games/new`) and a template (`/games/{id}`) may both match.
    methods.sort_unstable();
    methods.dedup();
    (!methods.is_empty()).then_some(methods)
}

/// The default service: 405 with `Allow` for a known path, else 404 (a problem for the API, a
/// page for people, as every other error).
pub async fn no_route(req: HttpRequest) -> HttpResponse {
    let path = req.path();
    let Some(methods) = allowed(path) else {
        return if crate::web::is_page_path(path) {
            crate::web::PageError::not_found().error_response()
        } else {
            ApiError::not_found(format!("no route for {path}")).error_response()
        };
    };
    let allow = methods.join(", ");
    let mut response = if crate::web::is_page_path(path) {
        crate::web::PageError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "Not this way",
            format!("This address takes {allow} only."),
        )
        .error_response()
    } else {
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            "Method not allowed",
            format!(
                "{} {path} is not served; this path allows {allow}",
                req.method()
            ),
        )
        .error_response()
    };
    if let Ok(value) = header::HeaderValue::from_str(&allow) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_paths_name_their_methods_and_unknown_ones_none() {
        assert_eq!(allowed("/v1/games"), Some(vec!["GET", "POST"]));
        assert_eq!(allowed("/v1/games/abc/join"), Some(vec!["POST"]));
        assert_eq!(allowed("/games/abc/act"), Some(vec!["POST"]));
        assert_eq!(allowed("/games/new"), Some(vec!["GET", "POST"]));
        assert_eq!(allowed("/v1/nothing-here"), None);
        assert_eq!(allowed("/v1/games/abc/join/more"), None);
        assert_eq!(allowed("/v1/games//join"), None);
    }
}

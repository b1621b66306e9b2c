use super::*;

#[test]
fn nullable_field_must_be_present() {
    let missing = r#"{"success":true,"status":"succeeded","clientSecret":null,"paymentIntentId":"pi_1"}"#;
    let err = serde_json::from_str::<ConfirmResponse>(missing).unwrap_err();
    assert!(err.to_string().contains("missing field `error`"), "{err}");
    let present = r#"{"success":true,"status":"succeeded","clientSecret":null,"paymentIntentId":"pi_1","error":null}"#;
    let ok: ConfirmResponse = serde_json::from_str(present).unwrap();
    assert_eq!(ok.error, None);
    assert_eq!(ok.status, PaymentStatus::Succeeded);
}

#[test]
fn pagination_is_omitted_when_absent() {
    let body = ProductsResponse::<MinimalProduct> { products: vec![], pagination: None };
    assert_eq!(serde_json::to_string(&body).unwrap(), r#"{"products":[]}"#);
}

#[test]
fn error_codes_pair_with_contract_statuses() {
    let code: ServerErrorCode = serde_json::from_str(r#""payload_too_large""#).unwrap();
    assert_eq!(code.status(), 413);
    assert_eq!(serde_json::to_string(&ServerErrorCode::RateLimited).unwrap(), r#""rate_limited""#);
}

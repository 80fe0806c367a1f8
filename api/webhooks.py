"""Webhook subscriptions of an integrator (API key): create, list, pause and resume, delete, delivery log,
redelivery."""

from __future__ import annotations

import functools

import marshmallow as ma
from flask import url_for
from flask.views import MethodView
from marshmallow import fields, validate

from api.blueprint import Blueprint
from api.common import integrator_key, service
from api.contract import errors
from api.errors import ApiError
from api.schemas import BoundedList, Pattern, StrictBoolean
from workers import webhook_targets, webhooks
from workers.sweeper import work_item

blp = Blueprint(
    "webhooks",
    __name__,
    url_prefix="/webhooks",
    description="Signed webhooks (Standard Webhooks headers) for integrators",
)

KEY_AUTH: list[dict[str, list[str]]] = [{"apiKey": []}]


PORT = r"(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})"  # 1 to 65535
# a host (a name or a bracketed IPv6 address), a port from 1 to 65535, a path and query without a fragment
URL_PATTERN = rf'^https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]{{2,45}}\])(:{PORT})?(/[!-"$-~]*)?$'


class SubscriptionRequestSchema(ma.Schema):
    url = fields.String(
        required=True,
        validate=[validate.Length(1, 2000), Pattern(URL_PATTERN, error="an absolute http:// or https:// URL")],
    )
    events = BoundedList(
        fields.String(validate=validate.OneOf(webhooks.KINDS)),
        required=True,
        validate=validate.Length(1, len(webhooks.KINDS)),
    )
    secret = fields.String(
        # base64 of 24 to 98 bytes, padded: the signer decodes it at every delivery
        validate=Pattern(
            r"^whsec_(?:[A-Za-z0-9+/]{4}){8,32}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
            error="whsec_ and the base64 of 24 to 98 bytes (padded with = to a multiple of 4 characters)",
        ),
        metadata={"description": "whsec_<base64 of 24 to 98 bytes>; generated when omitted"},
    )


class SubscriptionChangeSchema(ma.Schema):
    active = StrictBoolean(
        required=True,
        metadata={"description": "false pauses the subscription; true resumes it, with its failures cleared"},
    )


class SubscriptionSchema(ma.Schema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    created_at = fields.String(required=True)
    active = fields.Boolean(
        required=True,
        metadata={"description": "false while disabled: nothing is sent, and no new event is queued for it"},
    )
    disabled_reason = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["paused", "failing", "revoked"]),
        metadata={
            "description": "`paused` by its API key, `revoked` with its API key (by the operator), or `failing`: "
            "every send failed for "
            f"{webhooks.DISABLE_AFTER_SECONDS // 86400} days; null while active"
        },
    )
    disabled_at = fields.String(required=True, allow_none=True, metadata={"description": "null while active"})
    failures = fields.Integer(required=True, metadata={"description": "consecutive failed attempts"})
    secret = fields.String(metadata={"description": "shown only when the subscription is created"})


class SubscriptionListSchema(ma.Schema):
    webhooks = fields.List(fields.Nested(SubscriptionSchema), required=True)


class AttemptSchema(ma.Schema):
    at = fields.String(required=True)
    outcome = fields.String(
        required=True,
        metadata={
            "description": "a short category: "
            + ", ".join(f"`{c}`" for c in webhook_targets.CATEGORIES)
            + " (`blocked_target`: the host now resolves to an address webhooks may not go to; `redirect`: a 3xx "
            "answer, never followed)"
        },
    )
    status = fields.Integer(metadata={"description": "the receiver's HTTP status, when it answered"})
    redelivery = fields.Boolean()


class DeliverySchema(ma.Schema):
    key = fields.String(required=True)
    id = fields.String(required=True, metadata={"description": "the webhook-id header"})
    type = fields.String(required=True)
    game_id = fields.String(allow_none=True, required=True)
    timestamp = fields.String(required=True)
    data = fields.Dict(required=True)
    status = fields.String(required=True, metadata={"description": "pending, retrying or delivered"})
    attempts = fields.List(fields.Nested(AttemptSchema), required=True)
    delivered_at = fields.String()


class DeliveryListSchema(ma.Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)


class PageQuerySchema(ma.Schema):
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))
    offset = fields.Integer(load_default=0, validate=validate.Range(0, 10**9))


def key_required(func):
    """Check the API key before the body is parsed, so a missing key is a 401 whatever the body."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        require_key()
        return func(*args, **kwargs)

    return wrapper


def require_key():
    key = integrator_key()
    if key is None:
        raise ApiError("unauthorized", "this needs an integrator's API key: send it as a bearer token")
    return key


def own_subscription(sub_id: str) -> dict:
    key = require_key()
    sub = webhooks.get_subscription(service().documents, sub_id)
    if sub is None or sub["key_id"] != key.key_id:
        raise ApiError("not_found", f"no webhook subscription {sub_id!r} for this API key")
    return sub


@blp.route("")
class Subscriptions(MethodView):
    @key_required
    @blp.arguments(SubscriptionRequestSchema())
    @blp.response(201, SubscriptionSchema())
    @errors(blp, "unauthorized", "webhook_target_refused", "too_many_webhooks")
    @blp.doc(operationId="createWebhook", security=KEY_AUTH)
    def post(self, body):
        """Subscribe a URL to event kinds; the response holds the signing secret (shown once)

        The URL's host must resolve to public addresses only (checked now and again before every send);
        redirects are never followed. An API key holds at most 20 subscriptions."""
        key = require_key()
        store = service().documents
        full = f"this API key holds {webhooks.MAX_PER_KEY} subscriptions, the most it may: delete one first"
        if len(webhooks.subscriptions_for(store, key.key_id)) >= webhooks.MAX_PER_KEY:
            raise ApiError("too_many_webhooks", full)
        try:
            webhook_targets.resolve(body["url"])
        except webhook_targets.TargetRefused as exc:
            raise ApiError("webhook_target_refused", exc.detail) from None
        sub = webhooks.create_subscription(store, key.key_id, body["url"], body["events"], body.get("secret"))
        # Counted again once stored: of requests racing past the first count, those that find the key over the
        # cap take their subscription back (all of them, maybe: the cap holds, and a refused caller may retry).
        if len(webhooks.subscriptions_for(store, key.key_id)) > webhooks.MAX_PER_KEY:
            webhooks.delete_subscription(store, sub)
            raise ApiError("too_many_webhooks", full)
        return (
            webhooks.describe(store, sub, with_secret=True),
            201,
            {"Location": url_for("webhooks.Subscription", sub_id=sub["id"])},
        )

    @blp.response(200, SubscriptionListSchema())
    @errors(blp, "unauthorized")
    @blp.doc(operationId="listWebhooks", security=KEY_AUTH)
    def get(self):
        """The API key's subscriptions"""
        key = require_key()
        store = service().documents
        return {"webhooks": [webhooks.describe(store, s) for s in webhooks.subscriptions_for(store, key.key_id)]}


@blp.route("/<webhook_id:sub_id>")
class Subscription(MethodView):
    @blp.response(200, SubscriptionSchema())
    @errors(blp, "unauthorized", "not_found")
    @blp.doc(operationId="getWebhook", security=KEY_AUTH)
    def get(self, sub_id):
        """One subscription"""
        return webhooks.describe(service().documents, own_subscription(sub_id))

    @key_required
    @blp.arguments(SubscriptionChangeSchema())
    @blp.response(200, SubscriptionSchema())
    @errors(blp, "unauthorized", "not_found")
    @blp.doc(operationId="updateWebhook", security=KEY_AUTH)
    def patch(self, body, sub_id):
        """Pause or resume a subscription

        A paused subscription, or one disabled after failing for days, sends nothing and queues no new event; its
        queue is kept. Resuming clears its failures and sends that queue, in order, and what happens from then
        on; what happened in between is in each game's events (`GET /games/{game_id}/events`). Resuming an
        active subscription changes nothing."""
        store = service().documents
        sub = own_subscription(sub_id)
        if body["active"]:
            if webhooks.resume(store, sub):
                service().schedule_deliveries([sub_id])
        else:
            webhooks.pause(store, sub_id)
            if webhooks.get_subscription(store, sub_id) is None:  # deleted meanwhile: the pause goes with it
                store.delete_document(webhooks.DISABLED, sub_id)
                own_subscription(sub_id)  # the 404
        return webhooks.describe(store, sub)

    @blp.response(204)
    @errors(blp, "unauthorized", "not_found")
    @blp.doc(operationId="deleteWebhook", security=KEY_AUTH)
    def delete(self, sub_id):
        """Unsubscribe"""
        webhooks.delete_subscription(service().documents, own_subscription(sub_id))
        service().schedule_deliveries([sub_id])  # the job that finds it gone drops its delivery log
        return None


@blp.route("/<webhook_id:sub_id>/deliveries")
class Deliveries(MethodView):
    @key_required
    @blp.arguments(PageQuerySchema(), location="query")
    @blp.response(200, DeliveryListSchema())
    @errors(blp, "unauthorized", "not_found")
    @blp.doc(operationId="listWebhookDeliveries", security=KEY_AUTH)
    def get(self, query, sub_id):
        """The delivery log, oldest first: every event with its attempts"""
        own_subscription(sub_id)
        return {"deliveries": webhooks.deliveries(service().documents, sub_id, query["limit"], query["offset"])}


@blp.route("/<webhook_id:sub_id>/deliveries/<message_id:message_id>/redeliver")
class Redeliver(MethodView):
    @blp.response(202, DeliverySchema())
    @errors(blp, "unauthorized", "not_found", "webhook_disabled")
    @blp.doc(operationId="redeliverWebhook", security=KEY_AUTH)
    def post(self, sub_id, message_id):
        """Send one event again (queued: the send is recorded in the delivery's attempts; receivers
        de-duplicate by webhook-id); not while the subscription is disabled"""
        own_subscription(sub_id)
        entry = webhooks.find_delivery(service().documents, sub_id, message_id)
        if entry is None:
            raise ApiError("not_found", f"no delivery {message_id!r} in this subscription")
        off = webhooks.disabled(service().documents, sub_id)
        if off is not None:
            raise ApiError("webhook_disabled", f"this subscription is disabled ({off['reason']}): resume it first")
        service().schedule([work_item(f"redeliver:{sub_id}:{message_id}", "redeliver_webhook", [sub_id, message_id])])
        return entry

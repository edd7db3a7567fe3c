#!/usr/bin/env python3
"""A small client for the restaurant service's wire protocol v1 (see Docs/PROTOCOL.md).

    pip install pyzmq
    swift run svcd --seed-sample          # in another terminal
    python3 Docs/examples/client.py [--data-dir DIR] [--timeout SECONDS]

It finds the service through DIR/endpoints.json (default ./svc-data, env SVC_DATA_DIR), calls a
few use cases with a REQ socket, pipelines 20 requests on one DEALER socket, and exits non-zero
when anything unexpected happens.
"""

import argparse
import itertools
import json
import os
import sys
import time
import uuid

import zmq

# Codes answered before the request had any effect: sending it again is always safe.
SAFE_TO_RETRY = {"overloaded", "deadline_exceeded", "unavailable"}


class ServiceError(Exception):
    """An error reply ({"ok": false}) from the service."""

    def __init__(self, use_case, code, message):
        super().__init__(f"{use_case}: {code}: {message}")
        self.use_case, self.code, self.message = use_case, code, message


class NoReply(Exception):
    """No reply within the timeout (service down, overloaded transport, or the message was dropped)."""


class Client:
    """Calls use cases over REQ sockets, one per endpoint, Lazy-Pirate style: a socket that timed
    out is closed (linger 0) and replaced by a fresh one, because a REQ socket that is still waiting
    for a reply cannot send again."""

    def __init__(self, endpoints, context=None):
        self.endpoints = endpoints            # use case name -> "tcp://host:port"
        self.context = context or zmq.Context.instance()
        self.sockets = {}
        self.ids = itertools.count(1)

    @classmethod
    def from_data_dir(cls, data_dir):
        path = os.path.join(data_dir, "endpoints.json")
        with open(path, encoding="utf-8") as file:
            description = json.load(file)
        return cls(description["useCases"])

    def _socket(self, use_case):
        socket = self.sockets.get(use_case)
        if socket is None:
            socket = self.context.socket(zmq.REQ)
            socket.setsockopt(zmq.LINGER, 0)
            socket.connect(self.endpoints[use_case])
            self.sockets[use_case] = socket
        return socket

    def _discard(self, use_case):
        socket = self.sockets.pop(use_case, None)
        if socket is not None:
            socket.close(linger=0)

    def call(self, use_case, params=None, timeout=5.0, retries=0, deadline_ms=None):
        """Sends one request and returns its `result` object; raises ServiceError for an error
        reply and NoReply when nothing came back in time.

        `retries` resends after a timeout on a fresh socket. Only use it for reads or idempotent
        calls: a request that timed out may still have been executed. Replies with a code in
        SAFE_TO_RETRY are always retried (up to 3 times, with a short back-off), because the
        service guarantees they had no effect."""
        request = {"v": 1, "id": f"c-{next(self.ids)}", "params": params or {}}
        if deadline_ms is not None:
            request["deadlineMs"] = deadline_ms
        body = json.dumps(request).encode("utf-8")
        safe_attempts = 0
        while True:
            socket = self._socket(use_case)
            socket.send(body)
            if socket.poll(int(timeout * 1000), zmq.POLLIN):
                reply = json.loads(socket.recv())
            else:
                self._discard(use_case)       # Lazy Pirate: never reuse a REQ socket after a timeout
                if retries > 0:
                    retries -= 1
                    continue
                raise NoReply(f"{use_case}: no reply within {timeout} s")
            if reply.get("id") != request["id"]:
                raise RuntimeError(f"{use_case}: reply id {reply.get('id')!r} does not match {request['id']!r}")
            if reply["ok"]:
                return reply["result"]
            error = reply["error"]
            if error["code"] in SAFE_TO_RETRY and safe_attempts < 3:
                safe_attempts += 1
                time.sleep(0.1 * 2 ** safe_attempts)
                continue
            raise ServiceError(use_case, error["code"], error["message"])

    def close(self):
        for use_case in list(self.sockets):
            self._discard(use_case)


def money(cents, currency):
    digits = 0 if currency in ("JPY", "KRW") else 2
    return f"{currency} {cents / 10 ** digits:.{digits}f}"


def section(title):
    print(f"\n== {title}")


def demo(client, timeout):
    call = lambda use_case, params=None, **options: client.call(use_case, params, timeout=timeout, **options)

    section("GetRestaurant r-000001")
    restaurant = call("GetRestaurant", {"restaurantId": "r-000001"}, retries=2)["restaurant"]
    print(f"{restaurant['name']} ({restaurant['cuisine']}, {'$' * restaurant['priceLevel']}) "
          f"rating {restaurant['rating']:.2f} from {restaurant['reviewCount']} reviews, {restaurant['address']}")

    section("ListRestaurants: Italian, price level <= 2, pages of 5 via nextCursor")
    cursor, page, seen = None, 0, set()
    while page < 3:
        params = {"cuisine": "italian", "maxPriceLevel": 2, "limit": 5}
        if cursor:
            params["cursor"] = cursor
        result = call("ListRestaurants", params, retries=2)
        page += 1
        for item in result["restaurants"]:
            assert item["id"] not in seen, "paging returned a row twice"
            seen.add(item["id"])
            print(f"  page {page}: {item['rating']:.2f}  {item['name']}  [{item['id']}]")
        cursor = result["nextCursor"]
        if cursor is None:
            break

    section("SearchRestaurants 'garden' (top 3)")
    for item in call("SearchRestaurants", {"query": "garden", "limit": 3}, retries=2)["restaurants"]:
        print(f"  {item['rating']:.2f}  {item['name']}")

    section("RegisterUser with a unique e-mail")
    email = f"demo.{uuid.uuid4().hex[:12]}@example.com"
    user = call("RegisterUser", {"name": "Demo Client", "email": email})["user"]
    print(f"  registered {user['name']} <{user['email']}> as {user['id']} at {user['joinedAt']}")
    try:
        call("RegisterUser", {"name": "Demo Again", "email": email.upper()})
        raise RuntimeError("registering the same e-mail twice should be refused")
    except ServiceError as error:
        if error.code != "conflict":
            raise
        print(f"  same e-mail again (other case) is refused as expected: {error.code}: {error.message}")

    section("SaveFavoriteRestaurant r-000001")
    count = call("SaveFavoriteRestaurant", {"userId": user["id"], "restaurantId": "r-000001"})["favoriteCount"]
    print(f"  {user['name']} now has {count} favorite(s)")
    favorite = call("GetRestaurant", {"restaurantId": "r-000001", "userId": user["id"]})["restaurant"]["isFavorite"]
    print(f"  GetRestaurant with userId says isFavorite = {favorite}")

    section("AddReview")
    result = call("AddReview", {"userId": user["id"], "restaurantId": "r-000001", "rating": 5,
                                "text": "Written by the pyzmq example client."})
    print(f"  review {result['review']['id']} stored; restaurant rating is now {result['restaurantRating']:.3f}")

    section("GetMenu r-000001 + PlaceOrder")
    items = call("GetMenu", {"restaurantId": "r-000001"}, retries=2)["items"]
    for item in items:
        print(f"  {item['id']}  {item['name']:<20} {money(item['priceCents'], item['currency']):>12}  stock {item['stock']}")
    in_stock = [item for item in items if item["stock"] >= 1][:2]
    if not in_stock:
        raise RuntimeError("no menu item of r-000001 is in stock")
    # Buy enough units that the value after discount reaches the 1000 minor-unit minimum.
    lines, subtotal = [], 0
    for item in in_stock:
        quantity = min(item["stock"], max(1, -(-1200 // item["priceCents"])))
        lines.append({"itemId": item["id"], "quantity": quantity})
        subtotal += quantity * item["priceCents"]
    order = call("PlaceOrder", {"userId": user["id"], "items": lines, "discountCents": 100,
                                "deliveryAddress": "1 Example Way, Springfield"})["order"]
    currency = order["currency"]
    print(f"  order {order['id']}: subtotal {money(order['subtotalCents'], currency)}, "
          f"discount {money(order['discountCents'], currency)}, tax {money(order['taxCents'], currency)}, "
          f"total {money(order['totalCents'], currency)}")
    assert order["subtotalCents"] == subtotal

    section("GetOrder")
    again = call("GetOrder", {"orderId": order["id"]}, retries=2)["order"]
    print(f"  {again['id']} placed {again['createdAt']} for {again['deliveryAddress']}: "
          + ", ".join(f"{line['quantity']} x {line['itemId']}" for line in again["items"]))
    assert again == order


def pipeline(client, timeout, count=20):
    """Sends `count` requests on one DEALER socket without waiting, then matches the replies to
    the requests by id (a DEALER may get replies in any order)."""
    section(f"DEALER pipelining: {count} GetRestaurant requests in flight on one connection")
    socket = client.context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 0)
    socket.connect(client.endpoints["GetRestaurant"])
    try:
        pending = {}
        for n in range(1, count + 1):
            request_id = f"p-{n}"
            pending[request_id] = f"r-{n:06d}"
            body = {"v": 1, "id": request_id, "params": {"restaurantId": pending[request_id]}}
            socket.send_multipart([b"", json.dumps(body).encode("utf-8")])   # empty delimiter, then body
        replies = {}
        stop = time.monotonic() + timeout
        while len(replies) < count:
            left = stop - time.monotonic()
            if left <= 0 or not socket.poll(int(left * 1000), zmq.POLLIN):
                raise NoReply(f"DEALER: only {len(replies)} of {count} replies within {timeout} s")
            delimiter, body = socket.recv_multipart()                           # [empty, body]
            assert delimiter == b""
            reply = json.loads(body)
            replies[reply["id"]] = reply
        for request_id, restaurant_id in pending.items():
            reply = replies[request_id]
            if not reply["ok"]:
                raise ServiceError("GetRestaurant", reply["error"]["code"], reply["error"]["message"])
            restaurant = reply["result"]["restaurant"]
            assert restaurant["id"] == restaurant_id
            print(f"  {request_id:>5} -> {restaurant_id}  {restaurant['name']}")
    finally:
        socket.close(linger=0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("SVC_DATA_DIR", "./svc-data"),
                        help="svcd's data directory holding endpoints.json (env SVC_DATA_DIR; default ./svc-data)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for each reply (default 5)")
    args = parser.parse_args()

    try:
        client = Client.from_data_dir(args.data_dir)
    except (OSError, ValueError, KeyError) as error:
        print(f"cannot read {os.path.join(args.data_dir, 'endpoints.json')}: {error}\n"
              "is svcd running (e.g. `swift run svcd --seed-sample`) with the same --data-dir?", file=sys.stderr)
        return 69
    try:
        demo(client, args.timeout)
        pipeline(client, args.timeout)
    except (ServiceError, NoReply, AssertionError, RuntimeError, KeyError) as error:
        print(f"\nunexpected: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        client.close()
    print("\nall calls behaved as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())

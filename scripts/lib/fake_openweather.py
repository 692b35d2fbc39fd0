#!/usr/bin/env python3
"""A local stand-in for OpenWeather's current weather, for scripts that run `sprout serve` without the internet
(scripts/fuzz-api): `GET /data/2.5/weather` answers the captured real response in
Tests/SproutServerTests/Fixtures/diary/, anything else 404. Prints its port on the first line, then serves."""
import http.server, os, sys

FIXTURE = os.path.join(os.path.dirname(os.path.realpath(__file__)), "../../Tests/SproutServerTests/Fixtures/diary/openweather-current-weather.json")
BODY = open(FIXTURE, "rb").read()

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.split("?")[0] != "/data/2.5/weather":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

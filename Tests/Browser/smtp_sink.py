"""A tiny SMTP server for the browser tests: it takes every mail `sprout serve` sends (SMTP_URL=smtp://127.0.0.1:PORT)
and keeps it, so a test can read the link in it. EHLO/HELO, MAIL, RCPT, DATA (dot-unstuffed), RSET, NOOP, QUIT;
no STARTTLS and no AUTH (the server sends neither to a plain loopback relay that does not offer them)."""

import asyncio
import email
import email.policy
import re
import threading
import time


class SMTPSink:
    """Runs on its own thread with its own event loop; `messages` are `email.message.EmailMessage`s."""

    def __init__(self):
        self.messages = []
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._server = self._loop.run_until_complete(asyncio.start_server(self._session, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._thread = threading.Thread(target=self._loop.run_forever, name="smtp-sink", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def _session(self, reader, writer):
        async def reply(line):
            writer.write(line.encode() + b"\r\n")
            await writer.drain()

        await reply("220 sink ESMTP")
        try:
            while line := await reader.readline():
                verb = line.decode("ascii", "replace").strip().split(" ", 1)[0].upper()
                if verb == "EHLO":
                    await reply("250-sink\r\n250 8BITMIME")
                elif verb in ("HELO", "MAIL", "RCPT", "RSET", "NOOP"):
                    await reply("250 OK")
                elif verb == "DATA":
                    await reply("354 end with <CRLF>.<CRLF>")
                    lines = []
                    while (data := await reader.readline()) not in (b".\r\n", b".\n", b""):
                        lines.append(data[1:] if data.startswith(b".") else data)
                    with self._lock:
                        self.messages.append(email.message_from_bytes(b"".join(lines), policy=email.policy.default))
                    await reply("250 queued")
                elif verb == "QUIT":
                    await reply("221 bye")
                    break
                else:
                    await reply("502 not here")
        finally:
            writer.close()

    def wait_for(self, recipient: str, count: int = 1, timeout: float = 20):
        """The mails to `recipient` once there are `count` of them (the mail worker sends within seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                mails = [m for m in self.messages if m["To"].addresses[0].addr_spec == recipient]
            if len(mails) >= count:
                return mails
            assert time.monotonic() < deadline, f"no mail to {recipient} within {timeout}s (have {len(self.messages)})"
            time.sleep(0.1)

    def to(self, recipient: str):
        with self._lock:
            return [m for m in self.messages if m["To"].addresses[0].addr_spec == recipient]

    def close(self):
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)


def text_of(message) -> str:
    """The mail's text (base64 UTF-8 in Sprout's mails), decoded."""
    return message.get_body(preferencelist=("plain",)).get_content()


def link_in(message, path: str) -> str:
    """The first link in the mail to `path` (`/account/reset-password`), whole."""
    match = re.search(r"https?://\S+" + re.escape(path) + r"\S*", text_of(message))
    assert match, f"no link to {path} in:\n{text_of(message)}"
    return match.group(0)

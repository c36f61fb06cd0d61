#!/usr/bin/env python3
"""Evaluates a JavaScript expression in a dashboard page laid out in headless Chromium.

Usage: measure.py URL WIDTH HEIGHT EXPRESSION

Opens URL in a window WIDTH x HEIGHT CSS pixels, waits until the page says it
is ready (body data-ready="1", which the dashboard sets once the view and the
parts it fetches are drawn), evaluates EXPRESSION there and prints its value
as JSON. It speaks the DevTools protocol over --remote-debugging-pipe (file
descriptors 3 and 4), so it needs nothing but Python and Chromium: what
--dump-dom cannot tell (where things are laid out, what a canvas holds) the
dashboard test asks through it. Exits 1 with a message on stderr when the page
is not ready within 60 s or the expression throws.
"""
import json
import os
import shutil
import subprocess
import tempfile
import sys
import time


class Browser:
    """A headless Chromium driven over its DevTools pipe; close() ends it."""

    def __init__(self, chrome, width, height):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():  # Chromium reads commands on fd 3 and answers on fd 4
            r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)  # neither is 3 or 4 once both are copied
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.profile = tempfile.mkdtemp(prefix='measure-')
        self.proc = subprocess.Popen(
            [chrome, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--remote-debugging-pipe',
             f'--window-size={width},{height}', f'--user-data-dir={self.profile}',
             'about:blank'],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=open(os.environ.get("MEASURE_LOG", os.devnull), "w"))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.next_id, self.buffer = 0, b''

    def call(self, method, params=None, session=None):
        """Sends a command and returns its result; an error answer raises RuntimeError."""
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b'\0')
        while True:
            while b'\0' not in self.buffer:
                chunk = os.read(self.from_chrome, 1 << 16)
                if not chunk:
                    raise RuntimeError('chromium closed its pipe')
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b'\0', 1)
            answer = json.loads(raw)
            if answer.get('id') == self.next_id:
                if 'error' in answer:
                    raise RuntimeError(f'{method}: {answer["error"]}')
                return answer['result']

    def close(self):
        try:
            self.call('Browser.close')
        except RuntimeError:
            pass
        self.proc.wait(timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)


def evaluate(browser, session, expression):
    """Returns the value of expression in the page; an exception in it raises RuntimeError."""
    r = browser.call('Runtime.evaluate', {'expression': expression, 'returnByValue': True, 'awaitPromise': True}, session)
    if 'exceptionDetails' in r:
        raise RuntimeError(f'{expression}: {r["exceptionDetails"].get("exception", {}).get("description", r["exceptionDetails"])}')
    return r['result'].get('value')


def main():
    url, width, height, expression = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    browser = Browser(os.environ.get('CHROMIUM', 'chromium'), width, height)
    try:
        page = next(t for t in browser.call('Target.getTargets')['targetInfos'] if t['type'] == 'page')
        session = browser.call('Target.attachToTarget', {'targetId': page['targetId'], 'flatten': True})['sessionId']
        browser.call('Page.navigate', {'url': url}, session)
        deadline = time.time() + 60
        while not evaluate(browser, session, "!!document.body && document.body.dataset.ready === '1'"):
            if time.time() > deadline:
                raise RuntimeError(f'{url} was not ready within 60 s')
            time.sleep(0.2)
        print(json.dumps(evaluate(browser, session, expression)))
    finally:
        browser.close()


if __name__ == '__main__':
    try:
        main()
    except (RuntimeError, StopIteration, OSError) as e:
        print(f'measure.py: {e}', file=sys.stderr)
        sys.exit(1)

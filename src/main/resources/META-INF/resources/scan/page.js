// The /scan page's script (SERVICE.md §5.12): shows the chosen photo, sends it to POST /api/art-index/matches as the
// request body (its own type, never a form, no cookie or credentials: the match is public), and draws each card found
// over the photo (an SVG whose viewBox is the photo's pixels, so it scales with the photo as displayed) with a list
// of the cards in reading order. A refusal is shown as its problem's detail; a Retry-After is said in words and the
// button stays off until it has passed. A file of its own, because the page's Content-Security-Policy allows no
// inline script. Every text from the answer is set as text, never as markup.
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var main = document.getElementById('scan');
  var form = document.getElementById('choose');
  var input = document.getElementById('photo');
  var button = document.getElementById('send');
  var progress = document.getElementById('progress');
  var problem = document.getElementById('problem');
  var problemDetail = document.getElementById('problem-detail');
  var problemRetry = document.getElementById('problem-retry');
  var result = document.getElementById('result');
  var image = document.getElementById('photo-image');
  var outlines = document.getElementById('outlines');
  var list = document.getElementById('cards');
  var summary = document.getElementById('summary');
  var indexLine = document.getElementById('index');

  var maxBytes = Number(main.dataset.maxBytes);
  var maxSize = main.dataset.maxSize;
  var margin = Number(main.dataset.margin);
  var imageHosts = (main.dataset.imageHosts || '').split(/\s+/).filter(Boolean);

  var photoUrl = null;   // the blob: URL of the photo shown
  var sequence = 0;      // the latest photo sent; answers to earlier ones are dropped
  var sending = false;
  var busyUntil = 0;     // Date.now() before which the service asked not to send (Retry-After)
  var busyTimer = null;

  function chosen() {
    return input.files && input.files.length ? input.files[0] : null;
  }

  function updateButton() {
    button.disabled = !chosen() || sending || Date.now() < busyUntil;
  }

  input.addEventListener('change', function () {
    updateButton();
    if (chosen()) {
      start(chosen());
    }
  });

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (chosen() && !button.disabled) {
      start(chosen());
    }
  });

  function start(file) {
    clearProblem();
    if (file.size > maxBytes) {
      result.hidden = true;
      showProblem('This photo is ' + megabytes(file.size) + '; the largest photo the service takes is ' + maxSize
          + '. Choose a smaller one (a phone photo is usually 2 to 6 MB).');
      return;
    }
    if (Date.now() < busyUntil) {
      showProblem('The service asked to wait before the next photo.');
      showRetry(Math.ceil((busyUntil - Date.now()) / 1000));
      return;
    }
    var mine = ++sequence;
    showPhoto(file);
    sending = true;
    updateButton();
    progress.textContent = 'Looking for cards in ' + file.name + ' (' + megabytes(file.size) + ')…';
    // JPEG and PNG go as themselves; anything else as bytes, so that the answer names what the file really is
    var type = file.type === 'image/jpeg' || file.type === 'image/png' ? file.type : 'application/octet-stream';
    fetch('/api/art-index/matches', {
      method: 'POST',
      body: file,
      credentials: 'omit',
      headers: { 'Content-Type': type, 'Accept': 'application/json, application/problem+json' }
    }).then(function (answer) {
      var retryAfter = answer.headers.get('Retry-After');
      return answer.text().then(function (text) {
        var body = null;
        try {
          body = JSON.parse(text);
        } catch (ignored) {
          body = null;
        }
        return { status: answer.status, ok: answer.ok, statusText: answer.statusText, body: body,
          retryAfter: retryAfter };
      });
    }).then(function (answer) {
      if (mine !== sequence) {
        return;
      }
      if (answer.ok && answer.body && Array.isArray(answer.body.cards)) {
        progress.textContent = '';
        show(answer.body);
      } else {
        refused(answer);
      }
    }, function (error) {
      if (mine !== sequence) {
        return;
      }
      refused({ status: 0, error: error });
    }).then(function () {
      if (mine === sequence) {
        sending = false;
        updateButton();
      }
    });
  }

  // ---- the photo and its cards -----------------------------------------------------------------------------------

  function showPhoto(file) {
    if (photoUrl) {
      URL.revokeObjectURL(photoUrl);
    }
    photoUrl = URL.createObjectURL(file);
    clear(outlines);
    clear(list);
    summary.textContent = '';
    indexLine.textContent = '';
    image.alt = 'The chosen photo, ' + file.name;
    image.src = photoUrl;
    result.hidden = false;
  }

  function show(answer) {
    var cards = answer.cards;
    summary.textContent = summaryOf(cards);
    indexLine.textContent = answer.index ? 'Matched against ' + answer.index + '.' : '';
    cards.forEach(function (card, i) {
      list.appendChild(entry(card, i + 1));
    });
    // the corners are in the photo's pixels as displayed (its EXIF orientation applied), as the browser shows it
    if (image.complete && image.naturalWidth) {
      draw(cards);
    } else {
      image.addEventListener('load', function () { draw(cards); }, { once: true });
    }
  }

  function draw(cards) {
    var width = image.naturalWidth;
    var height = image.naturalHeight;
    outlines.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    clear(outlines);
    cards.forEach(function (card, i) {
      var n = i + 1;
      var corners = card.corners || [];
      if (corners.length !== 4) {
        return;
      }
      var link = svg('a', { 'href': '#card-' + n, 'class': 'outline status-' + statusOf(card),
        'aria-label': 'Card ' + n + ': ' + nameOf(card) + ', ' + statusWords(card) });
      link.dataset.card = String(n);
      link.appendChild(svg('polygon', { 'points': corners.map(function (p) { return p.x + ',' + p.y; }).join(' ') }));
      var cx = 0;
      var cy = 0;
      corners.forEach(function (p) { cx += p.x / 4; cy += p.y / 4; });
      var side = Math.min(distance(corners[0], corners[1]), distance(corners[1], corners[2]));
      var longest = Math.max(width, height);
      var r = Math.max(longest / 70, Math.min(side * 0.16, longest / 18));
      // the number stays whole inside the photo, even for a card whose centre is near its edge
      cx = Math.min(Math.max(cx, r), width - r);
      cy = Math.min(Math.max(cy, r), height - r);
      link.appendChild(svg('circle', { 'cx': cx, 'cy': cy, 'r': r }));
      var label = svg('text', { 'x': cx, 'y': cy, 'font-size': r * 1.15 });
      label.textContent = String(n);
      link.appendChild(label);
      // pointer and keyboard alike: hovering or tabbing to an outline marks its card in the list, and following
      // it (Enter) goes to that card
      ['mouseenter', 'focus'].forEach(function (on) { link.addEventListener(on, function () { highlight(n, true); }); });
      ['mouseleave', 'blur'].forEach(function (off) { link.addEventListener(off, function () { highlight(n, false); }); });
      outlines.appendChild(link);
    });
  }

  function entry(card, n) {
    var status = statusOf(card);
    var item = element('li', 'card status-' + status);
    item.id = 'card-' + n;
    item.tabIndex = -1; // an outline followed from the photo brings the focus here
    item.dataset.status = status;
    var first = card.matches && card.matches[0];
    if (first && status !== 'unknown') {
      item.dataset.illustrationId = first.illustration_id;
    }
    item.appendChild(text(element('span', 'number'), String(n)));
    var printing = status !== 'unknown' ? firstPrinting(first) : null;
    var src = printing && shownImage(printing.image_small_uri);
    if (src) {
      var small = element('img', 'small');
      small.alt = '';
      small.width = 146;
      small.height = 204;
      small.src = src;
      small.addEventListener('error', function () { small.replaceWith(element('span', 'no-image')); });
      item.appendChild(small);
    } else {
      item.appendChild(element('span', 'no-image'));
    }
    var what = element('div', 'what');
    what.appendChild(text(element('p', 'name'), nameOf(card)));
    if (printing) {
      what.appendChild(text(element('p', 'printing'), printingWords(printing, first.printings.length)));
    }
    what.appendChild(text(element('p', 'status'), statusWords(card)));
    if (status === 'ambiguous') {
      var alike = lookAlike(card).slice(1).map(function (match) {
        var p = firstPrinting(match);
        return p ? displayName(p) + ' (' + setAndNumber(p) + ')' : 'an artwork without a printing';
      });
      if (alike.length) {
        what.appendChild(text(element('p', 'others'), 'It could also be ' + alike.join(' or ') + '.'));
      }
    } else if (status === 'unknown') {
      what.appendChild(text(element('p', 'others'),
          'Its art is near no artwork of the index: a token, a card newer than the index, or not a card.'));
    }
    item.appendChild(what);
    item.addEventListener('mouseenter', function () { highlight(n, true); });
    item.addEventListener('mouseleave', function () { highlight(n, false); });
    return item;
  }

  function highlight(n, on) {
    var item = document.getElementById('card-' + n);
    var outline = outlines.querySelector('[data-card="' + n + '"]');
    [item, outline].forEach(function (e) {
      if (e) {
        e.classList.toggle('current', on);
      }
    });
  }

  function statusOf(card) {
    return card.status === 'confident' || card.status === 'ambiguous' ? card.status : 'unknown';
  }

  function statusWords(card) {
    switch (statusOf(card)) {
      case 'confident':
        return 'Confident';
      case 'ambiguous':
        var count = lookAlike(card).length;
        return 'Not sure: ' + (count > 2 ? count : 'two') + ' cards look alike';
      default:
        return 'Not in the index';
    }
  }

  // the artworks within the status rule's margin of the nearest: those that make the card ambiguous
  function lookAlike(card) {
    var matches = card.matches || [];
    if (!matches.length) {
      return [];
    }
    var nearest = matches[0].distance;
    return matches.filter(function (m) { return m.distance - nearest < margin; });
  }

  function nameOf(card) {
    if (statusOf(card) === 'unknown') {
      return 'Unknown card';
    }
    var first = card.matches && card.matches[0];
    var printing = firstPrinting(first);
    if (printing) {
      return displayName(printing);
    }
    return first ? 'Artwork ' + String(first.illustration_id).slice(0, 8) + ' (no printing in the catalog)' : 'Unknown card';
  }

  function firstPrinting(match) {
    return match && Array.isArray(match.printings) && match.printings.length ? match.printings[0] : null;
  }

  function displayName(printing) {
    return printing.face && printing.face.name ? printing.face.name : printing.name;
  }

  function setAndNumber(printing) {
    return String(printing.set || '').toUpperCase() + ' #' + printing.collector_number;
  }

  function printingWords(printing, count) {
    var words = setAndNumber(printing);
    if (printing.face) {
      words += printing.face.index === 0 ? ' · front face' : ' · back face of ' + printing.name;
    }
    if (printing.lang && printing.lang !== 'en') {
      words += ' · ' + printing.lang;
    }
    if (count > 1) {
      words += ' · ' + (count - 1) + (count === 2 ? ' other printing' : ' other printings');
    }
    return words;
  }

  // a printing's image, when the page may show it: https on one of the configured image hosts (the page's policy)
  function shownImage(uri) {
    try {
      var url = new URL(uri);
      return url.protocol === 'https:' && imageHosts.indexOf(url.host.toLowerCase()) >= 0 ? url.href : null;
    } catch (ignored) {
      return null;
    }
  }

  function summaryOf(cards) {
    if (!cards.length) {
      return 'No card was found in this photo. Try again with the cards lying flat in good light, each whole in the'
          + ' frame, on a surface that stands out from their edges.';
    }
    var counts = { confident: 0, ambiguous: 0, unknown: 0 };
    cards.forEach(function (card) { counts[statusOf(card)]++; });
    var parts = [];
    if (counts.confident) {
      parts.push(counts.confident + ' confident');
    }
    if (counts.ambiguous) {
      parts.push(counts.ambiguous + ' not sure');
    }
    if (counts.unknown) {
      parts.push(counts.unknown + ' not in the index');
    }
    return (cards.length === 1 ? '1 card found' : cards.length + ' cards found') + ', in reading order: '
        + parts.join(', ') + '.';
  }

  // ---- refusals ----------------------------------------------------------------------------------------------------

  function refused(answer) {
    result.hidden = true;
    progress.textContent = '';
    if (answer.status === 0) {
      showProblem('The photo could not be sent (' + (answer.error && answer.error.message || 'no answer')
          + '). Check the connection and try again.');
      return;
    }
    var detail = answer.body && typeof answer.body.detail === 'string' && answer.body.detail
        ? answer.body.detail
        : 'The service answered ' + answer.status + (answer.statusText ? ' ' + answer.statusText : '') + '.';
    showProblem(detail);
    var seconds = retryAfterSeconds(answer.retryAfter);
    if (seconds !== null) {
      busyUntil = Date.now() + seconds * 1000;
      showRetry(seconds);
      clearTimeout(busyTimer);
      busyTimer = setTimeout(function () {
        busyUntil = 0;
        problemRetry.textContent = 'You can send the photo again now.';
        updateButton();
      }, seconds * 1000);
    }
  }

  function showProblem(detail) {
    problemDetail.textContent = detail;
    problemRetry.hidden = true;
    problem.hidden = false;
  }

  function showRetry(seconds) {
    problemRetry.textContent = 'The service asks to wait: try again in ' + span(seconds)
        + '. The Find cards button comes back then.';
    problemRetry.hidden = false;
  }

  function clearProblem() {
    problem.hidden = true;
    problemDetail.textContent = '';
    problemRetry.textContent = '';
  }

  // Retry-After (RFC 9110 §10.2.3): whole seconds, or an HTTP-date; null when absent or neither
  function retryAfterSeconds(value) {
    if (value === null || value === undefined) {
      return null;
    }
    var text = String(value).trim();
    if (/^\d+$/.test(text)) {
      return Number(text);
    }
    var at = Date.parse(text);
    return isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }

  function span(seconds) {
    if (seconds < 1) {
      return 'a moment';
    }
    if (seconds < 120) {
      return seconds + (seconds === 1 ? ' second' : ' seconds');
    }
    if (seconds < 7200) {
      return 'about ' + Math.round(seconds / 60) + ' minutes';
    }
    return 'about ' + Math.round(seconds / 3600) + ' hours';
  }

  // ---- small helpers -----------------------------------------------------------------------------------------------

  function megabytes(bytes) {
    var mb = bytes / (1024 * 1024);
    return (mb < 0.1 ? mb.toFixed(2) : mb.toFixed(1)) + ' MB';
  }

  function distance(a, b) {
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  function element(name, className) {
    var e = document.createElement(name);
    e.className = className;
    return e;
  }

  function text(e, words) {
    e.textContent = words;
    return e;
  }

  function svg(name, attributes) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attributes).forEach(function (key) { e.setAttribute(key, String(attributes[key])); });
    return e;
  }

  function clear(e) {
    while (e.firstChild) {
      e.removeChild(e.firstChild);
    }
  }

  updateButton();
})();

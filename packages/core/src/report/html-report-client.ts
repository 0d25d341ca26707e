/**
 * The report page's script, inlined as text (the page must work from a file, offline): reads
 * the JSON data element, draws the totals, the format switch, a squarified treemap of the
 * folder tree by bytes and a sortable table. Plain ES2020, no dependency. Kept free of
 * backticks and `${` so it can live in this template string, but for two rules it shares with
 * the rest of preencode, inlined as their source: sizes (`formatBytes`) and extensions (`extensionOf`).
 */
import { extensionOf } from '../paths.js'
import { formatBytes } from './units.js'

export const HTML_REPORT_CLIENT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('preencode-data').textContent);
  var LABELS = { original: 'original', brotli: 'brotli (br)', zstd: 'zstd', gzip: 'gzip' };
  var choices = ['original'].concat(data.formats);
  var state = { format: data.formats[0] || 'original', sortKey: null, sortDir: -1 };

  function sent(file, format) {
    if (format === 'original') return file.size;
    var size = file.variants[format];
    return size === undefined ? file.size : size;
  }
  var bytes = ${formatBytes.toString()};
  function percentSaved(before, after) {
    return before === 0 ? 0 : Math.round(1000 * (1 - after / before)) / 10;
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  var extensionOf = ${extensionOf.toString()};
  function extension(path) {
    return extensionOf(path).slice(1).toLowerCase();
  }
  function colour(path) {
    var ext = extension(path), hash = 0;
    for (var i = 0; i < ext.length; i++) hash = (hash * 31 + ext.charCodeAt(i)) % 360;
    var fixed = { js: 48, mjs: 48, css: 200, html: 12, json: 140, svg: 280, map: 90, wasm: 320, txt: 170 };
    return 'hsl(' + (ext in fixed ? fixed[ext] : hash) + ', 70%, 72%)';
  }

  // --- totals: the originals, then each format as sent (a file without that variant counts whole)
  function drawTotals() {
    var box = document.getElementById('totals');
    box.textContent = '';
    var original = 0;
    data.files.forEach(function (f) { original += f.size; });
    choices.forEach(function (format) {
      var total = 0, withVariant = 0;
      data.files.forEach(function (f) { total += sent(f, format); if (f.variants[format] !== undefined) withVariant++; });
      var card = el('div', { class: 'total', 'data-format': format, 'data-bytes': String(total) });
      card.appendChild(el('div', { class: 'label' }, LABELS[format] || format));
      card.appendChild(el('div', { class: 'bytes' }, bytes(total)));
      card.appendChild(el('div', { class: 'saved' }, format === 'original'
        ? data.files.length + ' files'
        : percentSaved(original, total).toFixed(1) + '% saved · ' + withVariant + ' variants'));
      box.appendChild(card);
    });
  }

  // --- the format switch
  function drawSwitch() {
    var nav = document.getElementById('formats');
    nav.textContent = '';
    nav.appendChild(el('span', {}, 'Size by'));
    choices.forEach(function (format) {
      var button = el('button', { type: 'button', 'data-format': format, 'aria-pressed': String(format === state.format) }, LABELS[format] || format);
      button.addEventListener('click', function () { state.format = format; render(); });
      nav.appendChild(button);
    });
  }

  // --- treemap: folders nest, files are cells whose area is their bytes in the chosen format
  function tree() {
    var root = { name: '', path: '', dirs: {}, files: [] };
    data.files.forEach(function (f) {
      var parts = f.path.split('/'), node = root;
      for (var i = 0; i < parts.length - 1; i++) {
        var name = parts[i];
        if (!node.dirs[name]) node.dirs[name] = { name: name, path: parts.slice(0, i + 1).join('/'), dirs: {}, files: [] };
        node = node.dirs[name];
      }
      node.files.push(f);
    });
    return root;
  }
  function items(node, format) {
    var list = [];
    Object.keys(node.dirs).forEach(function (key) {
      var dir = node.dirs[key], value = 0;
      (function sum(d) { d.files.forEach(function (f) { value += sent(f, format); }); Object.keys(d.dirs).forEach(function (k) { sum(d.dirs[k]); }); })(dir);
      if (value > 0) list.push({ dir: dir, value: value });
    });
    node.files.forEach(function (f) { var v = sent(f, format); if (v > 0) list.push({ file: f, value: v }); });
    return list.sort(function (a, b) { return b.value - a.value; });
  }
  function worst(row, sum, side) {
    var max = 0, min = Infinity;
    row.forEach(function (r) { max = Math.max(max, r.area); min = Math.min(min, r.area); });
    return Math.max(side * side * max / (sum * sum), sum * sum / (side * side * min));
  }
  // Bruls, Huizing and van Wijk's squarified layout: rows along the shorter side.
  function squarify(list, x, y, w, h) {
    var out = [], total = 0;
    list.forEach(function (it) { total += it.value; });
    if (total <= 0 || w <= 0 || h <= 0) return out;
    var rest = list.map(function (it) { return { it: it, area: it.value * w * h / total }; });
    while (rest.length) {
      var side = Math.min(w, h), row = [], sum = 0, best = Infinity;
      while (rest.length) {
        var next = row.concat([rest[0]]), nextSum = sum + rest[0].area, ratio = worst(next, nextSum, side);
        if (row.length && ratio > best) break;
        row = next; sum = nextSum; best = ratio; rest.shift();
      }
      var thick = sum / side, offset = 0;
      row.forEach(function (r) {
        var length = r.area / thick;
        out.push(w >= h ? { it: r.it, x: x, y: y + offset, w: thick, h: length } : { it: r.it, x: x + offset, y: y, w: length, h: thick });
        offset += length;
      });
      if (w >= h) { x += thick; w -= thick; } else { y += thick; h -= thick; }
    }
    return out;
  }
  function place(node, format, x, y, w, h, box) {
    squarify(items(node, format), x, y, w, h).forEach(function (r) {
      var style = 'left:' + r.x.toFixed(1) + 'px;top:' + r.y.toFixed(1) + 'px;width:' + r.w.toFixed(1) + 'px;height:' + r.h.toFixed(1) + 'px';
      if (r.it.dir) {
        var frame = el('div', { class: 'dir', style: style, 'data-dir': r.it.dir.path, title: r.it.dir.path + '/ — ' + bytes(r.it.value) });
        box.appendChild(frame);
        var label = r.h > 30 && r.w > 40 ? 15 : 0;
        if (label) frame.appendChild(el('span', { class: 'name' }, r.it.dir.name + '/ ' + bytes(r.it.value)));
        place(r.it.dir, format, r.x + 2, r.y + label + 1, r.w - 4, r.h - label - 3, box);
      } else {
        var f = r.it.file;
        var tip = [f.path, 'original ' + bytes(f.size)].concat(data.formats.map(function (fmt) {
          return fmt + ' ' + (f.variants[fmt] === undefined ? '— (sent as is)' : bytes(f.variants[fmt]));
        })).join('\n');
        var cell = el('div', { class: 'cell', style: style + ';background:' + colour(f.path), 'data-path': f.path, 'data-bytes': String(r.it.value), title: tip });
        if (r.w > 46 && r.h > 16) {
          cell.appendChild(el('span', { class: 'name' }, f.path.slice(f.path.lastIndexOf('/') + 1)));
          if (r.h > 30) cell.appendChild(el('span', {}, bytes(r.it.value)));
        }
        box.appendChild(cell);
      }
    });
  }
  function drawTreemap() {
    var box = document.getElementById('treemap');
    box.textContent = '';
    box.setAttribute('data-format', state.format);
    place(tree(), state.format, 0, 0, box.clientWidth, box.clientHeight, box);
  }

  // --- the table: one row per file, every column sortable
  var columns = [{ key: 'path', label: 'file' }, { key: 'original', label: 'original' }]
    .concat(data.formats.map(function (f) { return { key: f, label: LABELS[f] || f }; }))
    .concat([{ key: 'saved', label: 'saved' }]);
  function value(f, key) {
    if (key === 'path') return f.path;
    if (key === 'original') return f.size;
    if (key === 'saved') return percentSaved(f.size, sent(f, state.format));
    return sent(f, key);
  }
  function drawTable() {
    var head = document.querySelector('#files thead tr'), body = document.querySelector('#files tbody');
    head.textContent = ''; body.textContent = '';
    var key = state.sortKey || state.format;
    columns.forEach(function (c) {
      var th = el('th', { 'data-key': c.key, scope: 'col' }, c.label + (c.key === 'saved' ? ' (' + state.format + ')' : ''));
      if (c.key === key) th.setAttribute('aria-sort', state.sortDir < 0 ? 'descending' : 'ascending');
      if (c.key === state.format) th.className = 'current';
      th.addEventListener('click', function () {
        if (state.sortKey === c.key || (!state.sortKey && c.key === state.format)) state.sortDir = -state.sortDir;
        else state.sortDir = c.key === 'path' ? 1 : -1;
        state.sortKey = c.key;
        drawTable();
      });
      head.appendChild(th);
    });
    var rows = data.files.slice().sort(function (a, b) {
      var va = value(a, key), vb = value(b, key);
      var order = va < vb ? -1 : va > vb ? 1 : (a.path < b.path ? -1 : 1);
      return order * state.sortDir;
    });
    rows.forEach(function (f) {
      var tr = el('tr', { 'data-path': f.path });
      columns.forEach(function (c) {
        var td;
        if (c.key === 'path') td = el('td', {}, f.path);
        else if (c.key === 'saved') td = el('td', { 'data-percent': String(value(f, 'saved')) }, value(f, 'saved').toFixed(1) + '%');
        else if (c.key !== 'original' && f.variants[c.key] === undefined) td = el('td', { class: 'none', 'data-bytes': '', title: 'no ' + c.key + ' variant: sent as is' }, '—');
        else td = el('td', { 'data-bytes': String(value(f, c.key)) }, bytes(value(f, c.key)));
        if (c.key === state.format) td.classList.add('current');
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function render() { drawSwitch(); drawTreemap(); drawTable(); }
  drawTotals();
  render();
  var pending = 0;
  window.addEventListener('resize', function () { clearTimeout(pending); pending = setTimeout(drawTreemap, 100); });
})();
`

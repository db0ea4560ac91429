import { jsonWithParameter } from '../emulation.js';
import { type Fault, isObject } from '../model.js';
import { ok } from './shared.js';

export const statusString: Fault = {
  id: 'RR-STATUS-STRING',
  iface: 'rest-route',
  after(res) {
    if (isObject(res.body) && typeof res.body.status === 'boolean') res.body.status = res.body.status ? '1' : '0';
  },
};

export const errorsNull: Fault = {
  id: 'RR-ERRORS-NULL',
  iface: 'rest-route',
  after(res) {
    if (ok(res)) res.body.errors = null;
  },
};

export const languageMissing: Fault = {
  id: 'RR-LANGUAGE-MISSING',
  iface: 'rest-route',
  after(res, req) {
    if (req.endpoint === 'product/listing' && isObject(res.body)) delete res.body.language;
  },
};

export const badJson500: Fault = {
  id: 'RR-BAD-JSON-500',
  iface: 'rest-route',
  after(res) {
    if (res.status === 400 || (isObject(res.body) && /JSON/.test(String(res.body.message)))) {
      res.status = 500;
      res.body = '<b>Fatal error</b>: Uncaught JsonException: Syntax error in system/engine/loader.php';
    }
  },
};

export const jsonCharsetEmpty: Fault = {
  id: 'RR-JSON-CHARSET-EMPTY',
  iface: 'rest-route',
  // The module reads php://input only when CONTENT_TYPE is exactly "application/json"; with a
  // parameter (charset=utf-8, which many HTTP clients add) it falls back to $_POST, empty for a
  // JSON body: the request reads as one without fields, so a login with good credentials is refused.
  before(req) {
    if (req.method !== 'POST' || !isObject(req.raw.body)) return;
    if (!jsonWithParameter(req.raw.headers['content-type'])) return;
    const body = req.raw.body;
    for (const k of Object.keys(body)) delete body[k];
  },
};

export const languageCodeFromHeader: Fault = {
  id: 'RR-LANGUAGE-CODE-FROM-HEADER',
  iface: 'rest-route',
  // The module fills the language object's code from the request's Accept-Language (its first tag, lower
  // case), meant to tell the app which language the customer's device asks for, while the labels, formats
  // and the store's languages stay the store's: a client whose HTTP stack sends Accept-Language: fr-FR
  // reads code "fr-fr", a language the store does not have.
  after(res, req) {
    const header = req.raw.headers['accept-language'];
    const first = typeof header === 'string' ? header.split(',')[0]?.split(';')[0]?.trim().toLowerCase() : undefined;
    if (!first || !isObject(res.body) || !isObject(res.body.language)) return;
    res.body.language.code = first;
  },
};

export const addressErrorsKeyed: Fault = {
  id: 'RR-ADDRESS-ERRORS-KEYED',
  iface: 'rest-route',
  // The address form's controller collects its rule errors the platform's way, $this->error['firstname'] =
  // $this->language->get('error_firstname'), and answers $json['errors'] = $this->error: json_encode() writes an
  // array with string keys as a JSON object, so a refused add or edit answers errors {"firstname": "First Name
  // must be between 1 and 32 characters!", ...} where the other endpoints (and the envelope) carry an array.
  after(res, req) {
    const route = req.endpoint;
    if ((route !== 'account/address/add' && route !== 'account/address/edit') || req.method !== 'POST') return;
    if (!isObject(res.body) || res.body.status !== false || !Array.isArray(res.body.errors)) return;
    const keyed: Record<string, unknown> = {};
    for (const e of res.body.errors)
      if (isObject(e)) keyed[typeof e.field === 'string' ? e.field : String(e.code)] = e.message ?? e.code;
    if (Object.keys(keyed).length > 0) res.body.errors = keyed;
  },
};

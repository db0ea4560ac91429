import { type Fault, isObject } from '../model.js';
import { data, ok } from './shared.js';

export const accountCurrenciesKeyed: Fault = {
  id: 'RR-ACCOUNT-CURRENCIES-KEYED',
  iface: 'rest-route',
  // The account endpoint hands the platform's getCurrencies() straight to the answer; that model method
  // returns its rows keyed by currency code ($currency_data[$result['code']] = ...) and no array_values()
  // follows, so json_encode() writes currencies as an object {"EUR": {...}, "GBP": {...}} in place of an array.
  after(res, req) {
    const d = data(res);
    if (req.endpoint !== 'account/account' || !ok(res) || !Array.isArray(d?.currencies)) return;
    const keyed: Record<string, unknown> = {};
    for (const c of d.currencies) if (isObject(c)) keyed[String(c.code)] = c;
    d.currencies = keyed;
  },
};

import { type Fault, isObject, isoOf, mapKey, numberOf } from '../model.js';
import { failed } from './shared.js';

export const amountNumber: Fault = {
  id: 'NET-AMOUNT-NUMBER',
  iface: 'rest-v1-network',
  after(res) {
    for (const k of ['amount', 'total_amount', 'pair_commission', 'level_commission', 'referral_commission'])
      mapKey(res.body, k, numberOf);
  },
};

export const isoTimestamp: Fault = {
  id: 'NET-ISO-TIMESTAMP',
  iface: 'rest-v1-network',
  after(res) {
    for (const k of ['user_registered', 'creation_date', 'insert_date']) mapKey(res.body, k, isoOf);
  },
};

export const errorsList: Fault = {
  id: 'NET-ERRORS-LIST',
  iface: 'rest-v1-network',
  after(res) {
    if (failed(res.body) && isObject(res.body.errors)) res.body.errors = Object.values(res.body.errors).map(String);
  },
};

export const points2dp: Fault = {
  id: 'NET-POINTS-2DP',
  iface: 'rest-v1-network',
  after(res) {
    for (const k of ['qualified_points', 'own_points', 'left_points', 'right_points'])
      mapKey(res.body, k, (v) => (typeof v === 'string' && /^\d+\.\d+$/.test(v) ? Number(v).toFixed(2) : v));
  },
};

export const leafChildrenArray: Fault = {
  id: 'NET-LEAF-CHILDREN-ARRAY',
  iface: 'rest-v1-network',
  after(res, req) {
    if (req.endpoint === '/user_geneology') mapKey(res.body, 'children', (v) => (v === '' ? [] : v));
  },
};

export const messageMissing: Fault = {
  id: 'NET-MESSAGE-MISSING',
  iface: 'rest-v1-network',
  after(res) {
    if (failed(res.body)) delete res.body.message;
  },
};

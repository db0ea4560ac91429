/** A complete order/create billing block the shop's seed accepts (cash on delivery). */
export const BILLING = {
  first_name: 'B',
  last_name: 'Uyer',
  country: 'US',
  city: 'Springfield',
  state: 'IL',
  postcode: '62701',
  phone: '5551234567',
  email: 'buyer@example.test',
  payment_method: 'cod',
  payment_method_title: 'Cash on delivery',
  address_1: '1 Main Street',
};

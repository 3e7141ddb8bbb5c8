/**
 * Passwords of 8+ characters that top the public breach-frequency lists (SecLists' most common
 * credentials, NCSC's 100k list): refused at sign-up whatever their length. Compared lower-cased.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678', '123456789', '1234567890', '12345678910', '87654321', '11111111', '00000000', '88888888', '99999999', '12341234',
  '11223344', '12121212', '123123123', '1q2w3e4r', '1q2w3e4r5t', '1qaz2wsx', 'qwertyui', 'qwertyuiop', 'qwerty123', 'qwerty12',
  'password', 'password1', 'password12', 'password123', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa55word', 'password!', 'mypassword',
  'iloveyou', 'iloveyou1', 'sunshine', 'princess', 'football', 'baseball', 'basketball', 'superman', 'batman123', 'starwars',
  'whatever', 'trustno1', 'welcome1', 'welcome123', 'letmein1', 'letmein123', 'abc12345', 'abcd1234', 'abcdefgh', 'asdfghjk',
  'asdfghjkl', 'zxcvbnm1', 'zxcvbnm123', 'q1w2e3r4', 'a1b2c3d4', 'aa123456', 'admin123', 'administrator', 'changeme', 'changeme1',
  'computer', 'internet', 'michelle', 'jennifer', 'jordan23', 'charlie1', 'shadow12', 'master12', 'monkey12', 'dragon12',
  'liverpool', 'chelsea1', 'arsenal1', 'manchester', 'football1', 'soccer12', 'hello123', 'helloworld', 'freedom1', 'qazwsxedc',
  'todoist1', 'todoist123', 'doable123', 'secret12', 'secret123', 'default1', 'access14', 'mustang1', 'michael1', 'samsung1',
  'google123', 'loveyou1', 'lovely12', 'blink182', 'pokemon1', 'minecraft', 'fuckyou1', 'killer12', 'qwer1234', 'zaq12wsx',
]);

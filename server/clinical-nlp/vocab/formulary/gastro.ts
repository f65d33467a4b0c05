/** Acid, nausea, spasm, bowel, diarrhoea, liver and pancreas. Row format: ../formulary.ts. */
export const GASTRO = `
omeprazole|||capsule,suspension|10,20,40|omez,ocid,omee,prilosec
pantoprazole|||tablet,injection|20,40|pan,pantop,pantocid,protonix,pantodac
rabeprazole|||tablet|10,20|razo,rablet,rabicip,happi,rabeloc,aciphex
esomeprazole|||tablet,capsule,sachet|20,40|nexpro,esoz,raciper,sompraz,nexium
lansoprazole|||capsule|15,30|lanzol,prevacid
dexlansoprazole|||capsule|30,60|dexilant
vonoprazan|||tablet|10,20|voquezna
pantoprazole + domperidone|||capsule||pan d,pantocid d,pantop d,pantodac d
rabeprazole + domperidone|||capsule||razo d,rablet d,rabicip d,happi d
esomeprazole + domperidone|||capsule||nexpro rd,esoz d,sompraz d
omeprazole + domperidone|||capsule||omez d,ocid d
pantoprazole + levosulpiride|||capsule||
rabeprazole + levosulpiride|||capsule||
esomeprazole + naproxen|||tablet||vimovo
omeprazole + sodium bicarbonate|||capsule,sachet||zegerid
famotidine|||tablet,injection|20,40|famocid,topcid,pepcid,pepcid ac
ranitidine|||tablet,injection|150,300|rantac,aciloc,zinetac,zantac
cimetidine|||tablet|200,400|tagamet
sucralfate|||suspension,tablet|500,1000,1g/10ml|carafate
sucralfate + oxetacaine|||suspension||
aluminium hydroxide|aluminum hydroxide||suspension,tablet||
magnesium hydroxide||milk of magnesia|suspension||phillips milk of magnesia
oxetacaine||oxethazaine|suspension||
sodium alginate|||suspension||
aluminium hydroxide + magnesium hydroxide|||suspension,tablet||maalox
aluminium hydroxide + magnesium hydroxide + simethicone||antacid,antacid gel,antacid syrup|suspension,tablet||digene,gelusil,gelusil mps,mylanta,maalox plus
aluminium hydroxide + magnesium hydroxide + oxetacaine|||suspension||mucaine,mucaine gel
sodium alginate + sodium bicarbonate + calcium carbonate|||suspension,tablet||gaviscon
calcium carbonate + magnesium hydroxide|||tablet||rolaids
bismuth subsalicylate|||tablet,suspension|262|pepto bismol
domperidone|||tablet,suspension|10,1mg/ml|domstal,motilium
ondansetron|||tablet,orally disintegrating tablet,injection,syrup|2,4,8,2mg/5ml,2mg/ml|emeset,ondem,vomikind,zofran
granisetron|||tablet,injection|1,2|
metoclopramide|||tablet,injection|10,5mg/ml|perinorm,reglan,maxolon
prochlorperazine|||tablet,injection|5|stemetil,compazine
doxylamine + pyridoxine|||tablet||doxinate,diclegis,bonjesta
doxylamine|||tablet|25|unisom
pyridoxine||vitamin b6|tablet|10,25,50,100|
itopride|||tablet|50,150|ganaton
levosulpiride|||tablet|25,75|levopraid,sulpitac
drotaverine|||tablet,injection|40,80|drotin,drotin ds
drotaverine + mefenamic acid|||tablet||drotin m
dicyclomine|dicyclomine|dicycloverine|tablet,injection,drops|10,20|bentyl
dicyclomine + paracetamol|||tablet||cyclopam
dicyclomine + simethicone|||drops||colimex
hyoscine butylbromide|||tablet,injection|10,20mg/ml|buscopan
hyoscyamine|||tablet|0.125|levsin
mebeverine|||tablet,capsule|135,200|colospa,duspatalin
chlordiazepoxide + clidinium|||capsule||librax
simethicone|||drops,tablet|40,80,125,40mg/0.6ml|colicaid,gas x
lactulose|||syrup,solution|10g/15ml,3.35g/5ml|duphalac,looz,livoluk,kristalose,enulose
polyethylene glycol||peg,macrogol,polyethylene glycol 3350,peg 3350|powder,sachet|17g,8.5g|peglec,miralax,golytely,colyte
bisacodyl|||tablet,suppository|5,10|dulcolax,bisalax
sodium picosulfate|||drops,tablet,syrup|5,10,5mg/5ml|cremalax,laxoberal
senna||sennosides|tablet|8.6,12|senokot,pursennid
liquid paraffin + magnesium hydroxide||liquid paraffin and milk of magnesia|syrup,emulsion||cremaffin,agarol
liquid paraffin + magnesium hydroxide + sodium picosulfate|||syrup||cremaffin plus
ispaghula husk||psyllium,psyllium husk,isabgol,ispaghula|powder,sachet|3.5g|naturolax,metamucil,fybogel
docusate||docusate sodium|capsule,ear drops|100,250,5%|colace,soliwax
lubiprostone|||capsule|8mcg,24mcg|amitiza
linaclotide|||capsule|72mcg,145mcg,290mcg|linzess
prucalopride|||tablet|1,2|motegrity
methylnaltrexone|||tablet,injection|150|relistor
loperamide|||capsule,tablet|2|imodium,eldoper
diphenoxylate + atropine|||tablet||lomotil
racecadotril|||tablet,sachet,capsule|10,30,100|redotil
oral rehydration salts||ors,oral rehydration solution,oral rehydration salt|sachet,powder||electral,pedialyte
zinc||zinc sulphate,zinc sulfate|tablet,dispersible tablet,syrup|10,20,20mg/5ml|zinconia
saccharomyces boulardii|||capsule,sachet|250,282.5|econorm,florastor
lactic acid bacillus||lactobacillus,lactobacillus sporogenes,bacillus coagulans,probiotic|capsule,sachet,tablet||sporlac,vizylac
lactobacillus rhamnosus gg|||capsule,sachet||culturelle
bacillus clausii|||suspension,capsule||enterogermina
ursodeoxycholic acid||ursodiol,udca|tablet|150,300,450,600|udiliv,ursocol,actigall,urso
silymarin|||tablet,capsule|70,140|silybon,limarin,legalon
l ornithine l aspartate||lola,ornithine aspartate|sachet,injection,tablet|3g,5g,150mg|hepamerz
mesalazine|mesalamine||tablet,sachet,suppository,enema|400,800,1200,1000,1g|mesacol,asacol,lialda,pentasa,apriso
pancreatin||pancrelipase|capsule|150,300|creon,zenpep
orlistat|||capsule|60,120|xenical,alli
clidinium|||capsule||
diphenoxylate|||tablet||
`;
